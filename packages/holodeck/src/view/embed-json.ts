/**
 * JSON for a `<script type="application/json">` element: `<`, `>` and `&` are written as
 * \u escapes (so `</script>` or `<!--` in a model's answer cannot end the element), and so are
 * U+2028/U+2029. JSON.parse reads it back unchanged.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => {
    return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
