/**
 * Sentences about players: the page calls the player "You", so a verb agrees with the subject
 * ("You are out", "strong (seat 2) is out", "You and novice (seat 3) are out").
 */

/** What the page calls the player's own seat. */
export const YOU = 'You';

/** "a", "a and b", "a, b and c", with "You" first when it is among them. */
export function listed(names: readonly string[]): string {
  const ordered = [...names.filter((n) => n === YOU), ...names.filter((n) => n !== YOU)];
  if (ordered.length <= 1) return ordered.join('');
  return `${ordered.slice(0, -1).join(', ')} and ${ordered[ordered.length - 1]}`;
}

/** The subject with its verb: `forms` is the verb after he/she ("is", "wins") and after they/you ("are", "win"). */
export function withVerb(names: readonly string[], forms: { readonly one: string; readonly many: string }): string {
  const plural = names.length > 1 || names[0] === YOU;
  return `${listed(names)} ${plural ? forms.many : forms.one}`;
}

export const IS = { one: 'is', many: 'are' } as const;
export const WINS = { one: 'wins', many: 'win' } as const;

/** A camelCase name as lower-case words: "othersZero" → "others zero"; Yaniv and Assaf keep their capitals. */
export function spaced(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\byaniv\b/g, 'Yaniv')
    .replace(/\bassaf\b/g, 'Assaf');
}

/** The same, as a label: "yanivThreshold" → "Yaniv threshold". */
export function labelOf(name: string): string {
  const words = spaced(name);
  return words.charAt(0).toUpperCase() + words.slice(1);
}
