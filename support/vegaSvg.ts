/** A Vega-Lite spec compiled to Vega and rendered to SVG by vega's headless View (no canvas, no native code). */
import * as vega from 'vega';
import type * as vl from 'vega-lite';

export async function renderVegaLite(spec: vl.TopLevelSpec): Promise<string> {
  const { compile } = await import('vega-lite');
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
