// Named segments laid end to end: the one way a flat vector's layout is declared (the observation,
// the action context). Each segment's start follows from the sizes before it.

export interface SegmentSpec<Name extends string = string> {
  readonly name: Name;
  readonly size: number;
  readonly description: string;
}

export interface Segment<Name extends string = string> extends SegmentSpec<Name> {
  readonly start: number;
}

export interface SegmentLayout<Name extends string> {
  readonly segments: readonly Segment<Name>[];
  /** The vector's length: the segments' sizes summed. */
  readonly size: number;
  /** Segment name → start offset. */
  readonly offsets: Readonly<Record<Name, number>>;
}

export function segmentLayout<Name extends string>(specs: readonly SegmentSpec<Name>[]): SegmentLayout<Name> {
  let start = 0;
  const segments = specs.map((spec) => {
    const segment = { ...spec, start };
    start += spec.size;
    return segment;
  });
  const offsets = Object.fromEntries(segments.map((s) => [s.name, s.start])) as Record<Name, number>;
  return { segments, size: start, offsets };
}
