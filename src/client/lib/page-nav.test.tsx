import { act, fireEvent, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { usePageNav, WindowNavProvider } from '@client/lib/page-nav';

function Probe() {
  const { pathname, search, hash, navigate } = usePageNav();
  return (
    <>
      <p data-testid="where">{`${pathname}${search}${hash}`}</p>
      <button type="button" onClick={() => navigate('/#prices')}>
        Prices
      </button>
    </>
  );
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('the landing entry’s navigation (no router)', () => {
  it('reads the address, the #section right after hydrating', () => {
    window.history.replaceState(null, '', '/eu?utm=ad#prices');
    render(
      <WindowNavProvider>
        <Probe />
      </WindowNavProvider>,
    );
    expect(screen.getByTestId('where')).toHaveTextContent('/eu?utm=ad#prices');
  });

  it('renders where the server is told it is', () => {
    window.history.replaceState(null, '', '/#faq');
    const html = renderToString(
      <WindowNavProvider at={{ pathname: '/eu', search: '', hash: '' }}>
        <Probe />
      </WindowNavProvider>,
    );
    expect(html).toContain('>/eu</p>');
  });

  it('goes to a #section of this page through the history, and follows back and forward', () => {
    window.history.replaceState(null, '', '/');
    render(
      <WindowNavProvider>
        <Probe />
      </WindowNavProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Prices' }));
    expect(window.location.hash).toBe('#prices');
    expect(screen.getByTestId('where')).toHaveTextContent('/#prices');
    act(() => {
      window.history.replaceState(null, '', '/#faq');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(screen.getByTestId('where')).toHaveTextContent('/#faq');
  });
});
