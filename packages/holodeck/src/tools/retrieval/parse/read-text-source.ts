import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A text source file's contents, refused when they are not text: a NUL byte (a binary file named
 * .md or .txt would be indexed as noise and offered to the model as "documents") or bytes that are
 * not UTF-8 (Latin-1 text would be indexed with replacement characters). The error says where and
 * how to fix it; the ingester reports the file by name and indexes the others.
 */
export async function readTextSource(file: string): Promise<string> {
  const bytes = await readFile(file);
  const format = path.extname(file).toLowerCase() || 'text';
  const nul = bytes.indexOf(0);
  if (nul !== -1)
    throw new Error(
      `holds binary data (a NUL byte at byte ${nul}), not ${format} text: remove it from the source folder or convert it to UTF-8 text`,
    );
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw new Error(
      `is not UTF-8 text (byte 0x${bytes[at]?.toString(16).toUpperCase().padStart(2, '0')} at byte ${at}): save it as UTF-8`,
    );
  }
}

/**
 * The offset of the first byte that is not part of a well-formed UTF-8 sequence (lead byte and
 * continuation bytes; the decoder has already said the whole is invalid, this only says where).
 */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] as number;
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead <= 0xdf
          ? 2
          : lead >= 0xe0 && lead <= 0xef
            ? 3
            : lead >= 0xf0 && lead <= 0xf4
              ? 4
              : 0;
    if (length === 0) return index;
    for (let next = 1; next < length; next += 1) {
      const byte = bytes[index + next];
      if (byte === undefined || byte < 0x80 || byte > 0xbf) return index;
    }
    index += length;
  }
  return 0;
}
