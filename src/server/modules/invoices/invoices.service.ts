// The member's invoices, every plan including lifetime: read from the payment provider for each of
// the member's customers (Stripe's invoices, or the sandbox's own), newest first.
import type { InvoiceDto } from '@shared/api-contract';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { UnknownCustomerError, type InvoiceSummary, type PaymentsPort } from '../payments/payments.port';
import { customerIdsOfUser } from '../entitlements/entitlement-reads';
import { serverError } from '../../http/server-errors';

export type InvoicesServiceDeps = { db: Db; payments: PaymentsPort; logger: Logger };

function toDto(invoice: InvoiceSummary): InvoiceDto {
  return {
    id: invoice.id,
    number: invoice.number,
    createdAt: invoice.createdAt.toISOString(),
    status: invoice.status,
    total: invoice.total,
    amountTax: invoice.amountTax,
    currency: invoice.currency.toLowerCase(),
    url: invoice.url,
    pdfUrl: invoice.pdfUrl,
  };
}

export function createInvoicesService({ db, payments, logger }: InvoicesServiceDeps) {
  /** Throws provider_unavailable (503) when the provider cannot be read: the list shows a retry, never a blank. */
  async function list(userId: string): Promise<InvoiceDto[]> {
    const found: InvoiceSummary[] = [];
    for (const customerId of await customerIdsOfUser(db, userId, payments)) {
      try {
        found.push(...(await payments.listInvoices(customerId)));
      } catch (error) {
        // A customer the provider forgot (test ids after going live) has no invoices to show.
        if (!(error instanceof UnknownCustomerError)) throw error;
        logger.warn({ userId, customerId }, 'invoices of a customer unknown to the payment provider: left out');
      }
    }
    // A stable sort: invoices of one second keep the provider's own order (newest first).
    return found.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).map(toDto);
  }

  return {
    list,
    /** One of the member's invoices; another member's id is answered like an unknown one (404). */
    async get(userId: string, invoiceId: string): Promise<InvoiceDto> {
      const invoice = (await list(userId)).find((candidate) => candidate.id === invoiceId);
      if (!invoice) throw serverError('invoiceNotFound');
      return invoice;
    },
  };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;
