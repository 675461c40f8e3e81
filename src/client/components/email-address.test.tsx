import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailAddress } from './email-address';

describe('EmailAddress', () => {
  it('lets a line end only after the @ and the dots, and reads as the whole address (#46)', () => {
    const { container } = render(<EmailAddress email="alice.long-name@mail.example.com" />);
    expect(container.textContent).toBe('alice.long-name@mail.example.com');
    expect(container.querySelector('span')!.innerHTML.replaceAll(' style="display: inline;"', '')).toBe('alice.<wbr>long-name@<wbr>mail.<wbr>example.<wbr>com');
  });

  it('keeps the address whole in the accessible name', () => {
    render(
      <h1>
        <EmailAddress email="buyer@example.com" />
      </h1>,
    );
    expect(screen.getByRole('heading', { name: 'buyer@example.com' })).toBeInTheDocument();
  });
});
