/**
 * The invite link of a table with friends' seats: `/?join=CODE` on the page's own server. The
 * code is `TABLE.SECRET` (serve/PROTOCOL.md, "Tables with friends"): the part before the dot
 * names the table, so the joiner's connection is routed to the table's process (`?table=`).
 */

const PARAMETER = 'join';

/** The link a friend opens to join with this invite. */
export function inviteLink(location: Pick<Location, 'href'>, code: string): string {
  const url = new URL('/', location.href);
  url.searchParams.set(PARAMETER, code);
  return url.href;
}

/** The invite of the link the page was opened with, or null. */
export function inviteIn(location: Pick<Location, 'search'>): string | null {
  const code = new URLSearchParams(location.search).get(PARAMETER)?.trim();
  return code ? code : null;
}

/** The table an invite opens (the code's part before the dot). */
export function tableOfInvite(code: string): string {
  return code.split('.')[0];
}

/** The address without its invite, once used: a reload then takes the seat back instead of joining again. */
export function dropInvite(location: Pick<Location, 'href'>, history: Pick<History, 'replaceState'>): void {
  const url = new URL(location.href);
  url.searchParams.delete(PARAMETER);
  history.replaceState(null, '', url.href);
}
