import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OrderSummary } from './components/order-summary';

describe('the order summary after payment', () => {
  it('shows the tax included in what was charged, and no tax row without tax', () => {
    const { rerender } = render(<OrderSummary details={{ planType: 'monthly', amountTotal: 4284, amountTax: 684, currency: 'usd', email: 'buyer@example.com' }} />);
    expect(screen.getByText('Amount paid').nextElementSibling).toHaveTextContent('$42.84');
    expect(screen.getByText('Tax included').nextElementSibling).toHaveTextContent('$6.84');
    rerender(<OrderSummary details={{ planType: 'monthly', amountTotal: 3600, amountTax: 0, currency: 'usd', email: 'buyer@example.com' }} />);
    expect(screen.queryByText('Tax included')).not.toBeInTheDocument();
  });

  it('says a trial charged nothing today, when it ends and what is then charged', () => {
    const trial = { planType: 'monthly' as const, outcome: 'running' as const, startedAt: '2026-11-25T10:00:00.000Z', endsAt: '2026-12-02T10:00:00.000Z', amount: 3600, currency: 'usd', repeatReason: null };
    render(<OrderSummary details={{ planType: 'monthly', amountTotal: 0, amountTax: 0, currency: 'usd', email: 'buyer@example.com', trial }} />);
    expect(screen.getByText('Due today').nextElementSibling).toHaveTextContent('$0.00');
    expect(screen.queryByText('Amount paid')).not.toBeInTheDocument();
    expect(screen.getByTestId('order-trial')).toHaveTextContent(/^Free trial until .+\. Then \$36\.00\/month is charged unless you cancel before\.$/);
  });

  it('explains a trial refused as a repeat', () => {
    const trial = { planType: 'monthly' as const, outcome: 'refused_repeat' as const, startedAt: '2026-11-25T10:00:00.000Z', endsAt: '2026-11-25T10:00:00.000Z', amount: 3600, currency: 'usd', repeatReason: 'card' as const };
    render(<OrderSummary details={{ planType: 'monthly', amountTotal: 0, currency: 'usd', email: 'buyer@example.com', trial }} />);
    expect(screen.getByText('Amount paid')).toBeInTheDocument();
    expect(screen.getByTestId('order-trial')).toHaveTextContent('No free trial: This card was already used for a free trial.');
  });
});
