// The integrations' cards on the overview (GET /api/admin/integrations): one per integration of the
// server's registry, with its linked members, pending and failing work, and a link to its page.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { z } from 'zod';
import { Badge } from '@client/components/ui/badge';
import { Card, CardTitle } from '@client/components/ui/card';
import { api } from '@client/lib/api/api-client';

const cardsSchema = z.object({
  integrations: z.array(z.object({ name: z.string(), title: z.string(), path: z.string(), sandbox: z.boolean(), linked: z.number(), pending: z.number(), failing: z.number() })),
});

export function IntegrationCards() {
  const cards = useQuery({ queryKey: ['admin', 'integrations'], queryFn: () => api('/api/admin/integrations', { schema: cardsSchema }) });
  if (!cards.data || cards.data.integrations.length === 0) return null;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {cards.data.integrations.map((card) => (
        <Card key={card.name} role="region" aria-label={`${card.title} integration`} className="space-y-2">
          <div className="flex items-center gap-2">
            <CardTitle>
              <Link to={card.path} className="hover:text-primary">
                {card.title}
              </Link>
            </CardTitle>
            {card.sandbox ? <Badge tone="purple">sandbox</Badge> : null}
          </div>
          <p className="text-sm text-muted">
            {card.linked} linked · {card.pending} pending · {card.failing > 0 ? <span className="text-danger">{card.failing} failing</span> : '0 failing'}
          </p>
        </Card>
      ))}
    </div>
  );
}
