// The matching lines of a mod_search_docs result, in order: its structured
// content groups them by doc and section.
export const searchHits = (structured) =>
  (structured?.docs ?? []).flatMap((d) => d.sections.flatMap((s) => s.lines.map((l) => ({ path: d.path, anchor: s.anchor, ...l }))));
