import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OrderSummary } from './components/order-summary';

describe('the order summary of a purchase with a promotion code', () => {
  it('shows the code and what it took off, and the amount actually charged', () => {
    render(<OrderSummary details={{ planType: 'monthly', amountTotal: 2880, amountTax: 0, amountDiscount: 720, promotionCode: 'BF20', currency: 'usd', email: 'buyer@example.com' }} />);
    expect(screen.getByText('Promotion code BF20').nextElementSibling).toHaveTextContent('−$7.20');
    expect(screen.getByText('Amount paid').nextElementSibling).toHaveTextContent('$28.80');
  });
});
