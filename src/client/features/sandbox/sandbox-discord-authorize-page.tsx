// The sandbox Discord's authorize page (/sandbox/discord/authorize): what Discord's consent screen
// is for a live shop. The member types the Discord username to link instead of signing in to
// Discord; Authorize returns to the shop with a one-time code, Cancel with error=access_denied.
import { AlertCircle, Check, FlaskConical } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { discordUsernameSchema, type SandboxDiscordAuthorization } from '@shared/sandbox-discord-contract';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { FieldError, Input, Label } from '@client/components/ui/input';
import { PageSpinner, Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { useSiteSettings } from '@client/lib/site-settings';
import { useAuthorizeSandboxDiscord } from './api/authorize-sandbox-discord';
import { useSandboxDiscordAuthorization } from './api/get-sandbox-discord-authorization';

function SandboxNote() {
  return (
    <p className="inline-flex items-center gap-2 rounded-full border border-yellow-500/40 bg-yellow-500/10 px-3 py-1 text-xs font-semibold text-yellow-300">
      <FlaskConical className="h-3.5 w-3.5" aria-hidden="true" />
      Sandbox Discord — no real Discord account
    </p>
  );
}

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <Card className="max-w-md space-y-4 text-center">
        <h1 className="text-xl font-semibold">{title}</h1>
        {children}
      </Card>
    </main>
  );
}

/** The first problem the server found with a field, from a 400's details. */
function fieldProblem(error: ApiRequestError, field: string): string | undefined {
  if (!Array.isArray(error.details)) return undefined;
  const found = (error.details as { path?: unknown; message?: unknown }[]).find((detail) => detail.path === field);
  return typeof found?.message === 'string' ? found.message : undefined;
}

function ConsentForm({ search, authorization, onAuthorized }: { search: string; authorization: SandboxDiscordAuthorization; onAuthorized: (url: string) => void }) {
  const id = useId();
  const authorize = useAuthorizeSandboxDiscord();
  const [username, setUsername] = useState('');
  const [usernameError, setUsernameError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const busy = authorize.isPending;
  const { application, scopes, redirectOrigin, cancelUrl } = authorization;
  const inputId = `${id}-username`;
  const errorId = `${inputId}-error`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    const parsed = discordUsernameSchema.safeParse(username);
    if (!parsed.success) {
      setUsernameError(parsed.error.issues[0]?.message);
      return;
    }
    const query = new URLSearchParams(search);
    const state = query.get('state');
    try {
      const result = await authorize.mutateAsync({
        clientId: query.get('client_id') ?? '',
        redirectUri: query.get('redirect_uri') ?? '',
        scope: query.get('scope') ?? '',
        ...(state === null ? {} : { state }),
        username: parsed.data,
      });
      onAuthorized(result.redirectUrl);
    } catch (error) {
      if (error instanceof ApiRequestError) {
        const problem = fieldProblem(error, 'username');
        if (problem) setUsernameError(problem);
        else setFailure(error.network ? 'We could not reach Discord. Check your connection and try again.' : error.message);
      } else {
        setFailure('Something went wrong. Please try again.');
      }
    }
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-background p-6">
      <Card className="w-full max-w-md space-y-6 p-6 sm:p-8">
        <div className="space-y-3 text-center">
          <SandboxNote />
          <p className="text-sm text-muted">An external application</p>
          <h1 className="text-xl font-semibold">{application} wants to access your Discord account</h1>
        </div>
        <section aria-label="Permissions" className="space-y-2">
          <p className="text-xs font-semibold uppercase tracking-wide text-muted">This will allow {application} to:</p>
          <ul className="space-y-2 text-sm">
            {scopes.map(({ scope, description }) => (
              <li key={scope} className="flex items-center gap-2">
                <Check className="h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
                <span>{description}</span>
                <code className="ml-auto text-xs text-muted">{scope}</code>
              </li>
            ))}
          </ul>
        </section>
        <form noValidate onSubmit={submit} className="space-y-4" aria-busy={busy}>
          <div className="space-y-1.5">
            <Label htmlFor={inputId}>Discord username</Label>
            <Input
              id={inputId}
              value={username}
              disabled={busy}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="your.username"
              maxLength={40}
              aria-invalid={usernameError ? true : undefined}
              aria-describedby={usernameError ? errorId : undefined}
              onChange={(event) => {
                setUsername(event.target.value);
                setUsernameError(undefined);
                setFailure(null);
              }}
            />
            <FieldError id={errorId} message={usernameError} />
            <p className="text-xs text-muted">The same username is always the same sandbox Discord account.</p>
          </div>
          {failure ? (
            <div role="alert" className="flex items-start gap-2 rounded-lg border border-danger/40 bg-danger/10 p-3 text-sm text-red-300">
              <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
              <span>{failure}</span>
            </div>
          ) : null}
          <div className="flex items-center justify-between gap-4">
            <a href={cancelUrl} className="text-sm text-muted hover:text-foreground">
              Cancel
            </a>
            <Button type="submit" disabled={busy}>
              {busy ? (
                <>
                  <Spinner className="h-4 w-4 border-primary-foreground/30 border-t-primary-foreground" />
                  Authorizing…
                </>
              ) : (
                'Authorize'
              )}
            </Button>
          </div>
        </form>
        <p className="text-center text-xs text-muted">Once you authorize, you will be sent back to {redirectOrigin}.</p>
      </Card>
    </main>
  );
}

/** The consent screen for the OAuth request in `search`; `onAuthorized` moves the browser on (window.location by default). */
export function SandboxDiscordAuthorize({ search, onAuthorized = (url) => window.location.assign(url) }: { search: string; onAuthorized?: (url: string) => void }) {
  const { brandName, sandbox } = useSiteSettings();
  // A shop with the real Discord bot has no sandbox authorize page: nothing to load.
  const available = sandbox.includes('discord');
  const authorization = useSandboxDiscordAuthorization(search, available);
  if (available && authorization.isPending) return <PageSpinner label="Loading…" />;
  if (!available || authorization.isError || !authorization.data) {
    const invalid = !available || (authorization.error instanceof ApiRequestError && authorization.error.status === 400);
    return (
      <Notice title={invalid ? 'This authorization link is not valid' : 'Discord is unavailable'}>
        <p className="text-sm text-muted">
          {!available
            ? 'This shop links real Discord accounts: start again from the shop.'
            : invalid && authorization.error
              ? authorization.error.message
              : 'We could not load this page. Please try again.'}
        </p>
        <Button asChild variant="outline">
          <a href="/">Back to {brandName}</a>
        </Button>
      </Notice>
    );
  }
  return <ConsentForm search={search} authorization={authorization.data} onAuthorized={onAuthorized} />;
}

export function SandboxDiscordAuthorizePage() {
  const { search } = useLocation();
  return <SandboxDiscordAuthorize search={search} />;
}
