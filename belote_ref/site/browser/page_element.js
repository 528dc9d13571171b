// The interactive pages build their answers from elements, never from HTML strings: whatever the
// reader typed can only ever become text.

/** A new `tag` element with `attributes` (set as strings) and `children` (nodes, or strings as text). */
export function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}
