// Named segments laid end to end: the one way a flat vector's layout is declared (the observation,
// the action context). Each segment's start follows from the sizes before it.

export interface SegmentSpec<Name extends string = string> {
  readonly name: Name;
  readonly size: number;
  readonly description: string;
}

/** A spec placed in its vector: the spec's own fields (writers, bounds…) kept, its start added. */
export type Placed<Spec> = Spec & { readonly start: number };

export type Segment<Name extends string = string> = Placed<SegmentSpec<Name>>;

export interface SegmentLayout<Name extends string, Spec extends SegmentSpec<Name> = SegmentSpec<Name>> {
  readonly segments: readonly Placed<Spec>[];
  /** The vector's length: the segments' sizes summed. */
  readonly size: number;
  /** Segment name → start offset. */
  readonly offsets: Readonly<Record<Name, number>>;
}

export function segmentLayout<Name extends string, Spec extends SegmentSpec<Name> = SegmentSpec<Name>>(
  specs: readonly Spec[],
): SegmentLayout<Name, Spec> {
  let start = 0;
  const segments = specs.map((spec) => {
    const segment = { ...spec, start };
    start += spec.size;
    return segment;
  });
  const offsets = Object.fromEntries(segments.map((s) => [s.name, s.start])) as Record<Name, number>;
  return { segments, size: start, offsets };
}
