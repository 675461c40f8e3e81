// The sandbox's invoice page (what Stripe's hosted invoice page is for a live shop): one printable
// HTML document per invoice with its lines, any discount or credit, the tax, the total and whether
// it is paid. Rendered on the server; it needs no script.
import { renderToStaticMarkup } from 'react-dom/server';
import { formatMoney } from '@shared/plans';
import { countryName, formatRate } from '@shared/vat';
import type { Receipt } from './sandbox-tax';

export type ReceiptContext = { brandName: string; supportEmail: string };

const STATUS_TEXT: Record<string, string> = { paid: 'Paid', open: 'Due', void: 'Void', uncollectible: 'Uncollectible' };

const styles = {
  page: { margin: 0, background: '#f1f5f9', color: '#0b0f19', fontFamily: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif' },
  sheet: { maxWidth: '640px', margin: '32px auto', background: '#fff', borderRadius: '12px', padding: '32px' },
  muted: { color: '#64748b', fontSize: '14px' },
  table: { width: '100%', borderCollapse: 'collapse' as const, fontSize: '15px', marginTop: '24px' },
  cell: { padding: '10px 0', borderBottom: '1px solid #e2e8f0' },
  amount: { padding: '10px 0', borderBottom: '1px solid #e2e8f0', textAlign: 'right' as const, whiteSpace: 'nowrap' as const },
  total: { padding: '12px 0', fontWeight: 700, fontSize: '17px' },
} as const;

function Row({ label, amount, strong = false }: { label: string; amount: string; strong?: boolean }) {
  return (
    <tr>
      <th scope="row" style={{ ...(strong ? styles.total : styles.cell), textAlign: 'left', fontWeight: strong ? 700 : 400 }}>
        {label}
      </th>
      <td style={strong ? { ...styles.total, textAlign: 'right' } : styles.amount}>{amount}</td>
    </tr>
  );
}

function ReceiptPage({ receipt, ctx }: { receipt: Receipt; ctx: ReceiptContext }) {
  const { invoice, email } = receipt;
  const money = (minor: number) => formatMoney(minor, invoice.currency);
  const subtotal = invoice.lines.reduce((sum, line) => sum + line.amount, 0);
  const exclusive = invoice.taxBehavior === 'exclusive';
  // a discount comes off before tax, as at Stripe
  const beforeBalance = subtotal - invoice.amountDiscount + (exclusive ? invoice.amountTax : 0);
  const balanceApplied = beforeBalance - invoice.amountDue;
  const place = invoice.billingCountry ? ` (${countryName(invoice.billingCountry)})` : '';
  const taxLabel = invoice.taxRate > 0 ? `VAT ${formatRate(invoice.taxRate)}${place}` : `Tax${place}`;
  const status = STATUS_TEXT[invoice.status] ?? invoice.status;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`Receipt ${invoice.id} – ${ctx.brandName}`}</title>
      </head>
      <body style={styles.page}>
        <main style={styles.sheet}>
          <p style={{ ...styles.muted, margin: 0 }}>{ctx.brandName} · Sandbox — no real money</p>
          <h1 style={{ margin: '8px 0 4px', fontSize: '26px' }}>Receipt</h1>
          <p style={{ ...styles.muted, margin: 0 }}>
            {invoice.id} · {invoice.createdAt.toISOString().slice(0, 10)} ·{' '}
            <strong data-testid="receipt-status" style={{ color: invoice.status === 'paid' ? '#16a34a' : '#b45309' }}>
              {status}
            </strong>
          </p>
          <section aria-label="Billed to" style={{ marginTop: '20px', fontSize: '15px' }}>
            <p style={{ margin: 0 }}>Billed to {email}</p>
            {invoice.billingCountry ? <p style={{ margin: 0 }}>{countryName(invoice.billingCountry)}</p> : null}
            {invoice.taxId ? <p style={{ margin: 0 }}>Tax ID {invoice.taxId}</p> : null}
          </section>
          <table style={styles.table}>
            <caption style={{ ...styles.muted, textAlign: 'left' }}>Lines</caption>
            <tbody>
              {invoice.lines.map((line, index) => (
                <Row key={index} label={line.description} amount={money(line.amount)} />
              ))}
              <Row label="Subtotal" amount={money(subtotal)} />
              {invoice.amountDiscount > 0 ? <Row label="Discount" amount={money(-invoice.amountDiscount)} /> : null}
              {invoice.taxBehavior ? <Row label={exclusive ? taxLabel : `Includes ${taxLabel}`} amount={money(invoice.amountTax)} /> : null}
              {balanceApplied !== 0 ? <Row label="Applied balance" amount={money(-balanceApplied)} /> : null}
              <Row label="Total" amount={money(invoice.amountDue)} strong />
              {invoice.status === 'paid' ? <Row label="Amount paid" amount={money(invoice.amountDue)} /> : null}
              {invoice.amountRefunded > 0 ? <Row label="Refunded" amount={money(invoice.amountRefunded)} /> : null}
            </tbody>
          </table>
          <p style={{ ...styles.muted, marginTop: '24px' }}>Questions? Write to {ctx.supportEmail}.</p>
        </main>
      </body>
    </html>
  );
}

/** The receipt as a complete HTML document. */
export function renderReceipt(receipt: Receipt, ctx: ReceiptContext): string {
  return `<!doctype html>${renderToStaticMarkup(<ReceiptPage receipt={receipt} ctx={ctx} />)}`;
}
