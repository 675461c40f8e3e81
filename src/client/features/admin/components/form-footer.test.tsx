import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FormFooter, type FormResult } from './form-footer';

/** The footer at the end of a form; returns the submits the form received. */
function renderFooter(props: { busy?: boolean; result: FormResult }) {
  const submits: string[] = [];
  const form = (result: FormResult) => (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submits.push('submitted');
      }}
    >
      <FormFooter label="Save mails" busy={props.busy ?? false} result={result} />
    </form>
  );
  const { rerender } = render(form(props.result));
  return { submits, showResult: (result: FormResult) => rerender(form(result)) };
}

describe('the console forms’ footer', () => {
  it('submits its form and says nothing before the first result', async () => {
    const { submits } = renderFooter({ result: null });
    await userEvent.click(screen.getByRole('button', { name: 'Save mails' }));
    expect(submits).toEqual(['submitted']);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('cannot submit again while a save is under way', () => {
    renderFooter({ busy: true, result: null });
    expect(screen.getByRole('button', { name: 'Save mails' })).toBeDisabled();
  });

  it('announces a confirmation as a status and a refusal as an alert, in their own words', () => {
    const { showResult } = renderFooter({ result: { ok: true, message: 'Mail settings saved.' } });
    expect(screen.getByRole('status')).toHaveTextContent('Mail settings saved.');
    expect(screen.queryByRole('alert')).toBeNull();
    showResult({ ok: false, message: 'Days after access ends must be a whole number from 1 to 365.' });
    expect(screen.getByRole('alert')).toHaveTextContent('Days after access ends must be a whole number from 1 to 365.');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
