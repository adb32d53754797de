// CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), other two-byte escapes, and C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const OSC = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ESCAPE = /\u001b[@-_]?/g;
// C0 controls but tab and newline, DEL, and the C1 range (0x80-0x9f, e.g. the one-byte CSI 0x9b).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text from the model or a tool, made safe to print: escape and control sequences cannot move the
 * cursor, clear the screen, set the title, write the clipboard (OSC 52) or hide text. Sequences
 * are dropped; any other control character shows as `�`. Tabs and newlines stay.
 */
export function neutraliseTerminalText(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(OSC, '')
    .replace(CSI, '')
    .replace(ESCAPE, '')
    .replace(CONTROL, '\ufffd');
}
