/**
 * Which of the table sizes something was made for (levels rated, a model trained) a table of
 * another size uses: the nearest, the larger on a tie (a bot made for N seats has also played
 * every smaller number of seats in play, as its games eliminate seats). Pure and without imports:
 * the page uses it too (serve/net/static.ts, BROWSER_RULES), so it and the server pick alike.
 */
export function nearestSize(sizes: readonly number[], players: number): number | undefined {
  const gap = (size: number) => Math.abs(size - players);
  return [...sizes].sort((a, b) => gap(a) - gap(b) || b - a)[0];
}
