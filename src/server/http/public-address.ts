import type { Context, MiddlewareHandler } from 'hono';
import type { Config } from '../config';
import type { Logger } from '../logger';

type AddressConfig = Pick<Config, 'isProduction' | 'publicUrl' | 'trustedOrigins'>;

/**
 * The base of links that bring a buyer back into the shop (payment return, portal): PUBLIC_URL in
 * production. In development, the address the browser used when it is an allowed origin, so a
 * shop opened on 127.0.0.1 sends the buyer back to 127.0.0.1, where their session cookie lives.
 */
export function returnBaseUrl(config: AddressConfig, c: Context): string {
  if (config.isProduction) return config.publicUrl;
  const origin = c.req.header('origin') ?? new URL(c.req.url).origin;
  if (origin === new URL(config.publicUrl).origin || !config.trustedOrigins.includes(origin)) return config.publicUrl;
  return origin;
}

/** Development only: says once, in the log, that requests arrive somewhere PUBLIC_URL does not point. */
export function publicUrlNotice(config: AddressConfig, logger: Logger): MiddlewareHandler {
  const expected = new URL(config.publicUrl).origin;
  let told = false;
  return async (c, next) => {
    const arrived = new URL(c.req.url).origin;
    if (!told && arrived !== expected) {
      told = true;
      logger.warn(
        { publicUrl: config.publicUrl, arrivedAt: arrived },
        `PUBLIC_URL is ${config.publicUrl} but requests arrive at ${arrived}. Links in mails use PUBLIC_URL ` +
          `(payment return links follow the request in development); set PUBLIC_URL=${arrived} if buyers use that address.`,
      );
    }
    await next();
  };
}
