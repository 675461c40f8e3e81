import type { Mail } from './mail.port';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One branded layout for every mail: a heading, paragraphs and an optional button. */
function branded(brand: string, to: string, subject: string, paragraphs: string[], action?: { label: string; url: string }): Mail {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), `— ${brand}`].join('\n\n');
  const button = action
    ? `<p style="margin:28px 0"><a href="${escapeHtml(action.url)}" style="background:#22c55e;color:#04110a;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p><p style="font-size:12px;color:#64748b">Or paste this link into your browser: ${escapeHtml(action.url)}</p>`
    : '';
  const html = `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif">
<table role="presentation" width="100%"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="width:100%;max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td><p style="font-size:20px;font-weight:700;color:#0b0f19;margin:0 0 16px">${escapeHtml(brand)}</p>
${paragraphs.map((paragraph) => `<p style="font-size:15px;line-height:1.6;color:#1e293b">${escapeHtml(paragraph)}</p>`).join('\n')}
${button}
</td></tr></table></td></tr></table></body></html>`;
  return { to, subject, text, html };
}

export function passwordResetMail(brand: string, to: string, url: string): Mail {
  return branded(
    brand,
    to,
    `Reset your ${brand} password`,
    [
      'We received a request to reset the password of your account.',
      'The link below expires in 10 minutes. If you did not ask for it, you can ignore this e-mail: your password stays the same.',
    ],
    { label: 'Reset password', url },
  );
}

export function verifyEmailMail(brand: string, to: string, url: string): Mail {
  return branded(brand, to, `Confirm your ${brand} e-mail address`, ['Please confirm your e-mail address to finish creating your account.'], {
    label: 'Confirm e-mail',
    url,
  });
}
