/** A form of one text field and its button (the password the server asks for, a friend's name): the shape both share. */
import { useState } from 'preact/hooks';
import { html } from './html.js';

interface OneFieldFormProps {
  /** The form's class; its heading's id is `${kind}-title`. */
  readonly kind: string;
  readonly title: string;
  readonly label: string;
  /** The input's attributes (name, type, autocomplete, …). */
  readonly field: Readonly<Record<string, string>>;
  readonly submit: string;
  /** Whether the value may be sent (the button is off otherwise). */
  readonly ready: (value: string) => boolean;
  readonly onSubmit: (value: string) => void;
  /** Shown under the heading, and under the button. */
  readonly before?: unknown;
  readonly after?: unknown;
}

export function OneFieldForm({ kind, title, label, field, submit, ready, onSubmit, before, after }: OneFieldFormProps) {
  const [value, setValue] = useState('');
  return html`<form
    class=${kind}
    aria-labelledby=${`${kind}-title`}
    onSubmit=${(event: Event) => {
      event.preventDefault();
      if (ready(value)) onSubmit(value);
    }}
  >
    <h2 id=${`${kind}-title`}>${title}</h2>
    ${before}
    <label class="row"
      >${label}
      <input ...${field} value=${value} onInput=${(e: Event) => setValue((e.target as HTMLInputElement).value)} />
    </label>
    <button type="submit" class="primary" disabled=${!ready(value)}>${submit}</button>
    ${after}
  </form>`;
}
