import { ExternalLink } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/cn';
import { useSiteSettings } from '@client/lib/site-settings';

/** 'Join Discord': the configured invite in a new tab. */
export function JoinDiscordButton({ className }: { className?: string }) {
  const { discordInviteUrl } = useSiteSettings();
  return (
    <Button asChild size="lg" className={cn(className)}>
      <a href={discordInviteUrl} target="_blank" rel="noopener noreferrer">
        Join Discord
        <ExternalLink aria-hidden="true" className="h-4 w-4" />
      </a>
    </Button>
  );
}
