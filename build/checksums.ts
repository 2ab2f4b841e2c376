// dist/SHA256SUMS: `<64 lowercase hex>  <bare file name>` per artifact, the GNU `sha256sum`
// format, so `cd dist && sha256sum -c SHA256SUMS` verifies every file (docs/design/README.md).
import { createHash } from 'node:crypto';
import { createReadStream, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes a checksum file listing `fileNames` in the given order.
 *
 * @param dir Folder holding the files; the checksum file is written there too.
 * @param fileNames Bare file names inside `dir`.
 * @param checksumsName Bare name of the checksum file.
 * @returns Resolves once the file is in place (written to a temporary name, then renamed).
 */
export async function writeChecksums(dir: string, fileNames: readonly string[], checksumsName: string): Promise<void> {
  const lines: string[] = [];
  for (const name of fileNames) lines.push(`${await sha256Hex(path.join(dir, name))}  ${name}`);
  const temporary = path.join(dir, `.tmp-${process.pid}-${checksumsName}`);
  writeFileSync(temporary, `${lines.join('\n')}\n`);
  renameSync(temporary, path.join(dir, checksumsName));
}

async function sha256Hex(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
