import { Fragment } from 'react';

/**
 * An e-mail address that may wrap only after its "@" and its dots, never inside a word:
 * `overflow-wrap: anywhere` cut "alice@exam|ple.com" wherever the column ended, and `nowrap`
 * pushed a long address out of a phone's screen. <wbr> marks where a line may end.
 */
// What browsers give <wbr> anyway; said so that a DOM without a style sheet (jsdom in the tests)
// does not read it as a block, which would put spaces into the address's accessible name.
const INLINE = { display: 'inline' } as const;

export function EmailAddress({ email }: { email: string }) {
  const parts = email.split(/(?<=[@.])/);
  return (
    <span className="break-normal">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 ? <wbr style={INLINE} /> : null}
        </Fragment>
      ))}
    </span>
  );
}
