/** Why these bytes are not UTF-8 text (a NUL byte, an invalid sequence with its line), else undefined. */
export function textProblem(bytes: Buffer): string | undefined {
  const nul = bytes.indexOf(0);
  if (nul >= 0) return `holds binary data (a NUL byte at line ${lineOf(bytes, nul)})`;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return undefined;
  } catch {
    const offset = firstInvalidUtf8(bytes);
    return `is not UTF-8 (byte 0x${(bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0')} at line ${lineOf(bytes, offset)}, e.g. Latin-1)`;
  }
}

function lineOf(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset; index++) if (bytes[index] === 0x0a) line++;
  return line;
}

/** Offset of the first byte that starts an invalid UTF-8 sequence (the decoder already refused one). */
function firstInvalidUtf8(bytes: Buffer): number {
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index] ?? 0;
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte < 0xe0
          ? 2
          : byte >= 0xe0 && byte < 0xf0
            ? 3
            : byte >= 0xf0 && byte < 0xf5
              ? 4
              : 0;
    if (length === 0) return index;
    for (let next = 1; next < length; next++) if (((bytes[index + next] ?? 0) & 0xc0) !== 0x80) return index;
    index += length;
  }
  return Math.max(0, bytes.length - 1);
}
