// Independent check of a darwin executable's ad-hoc code signature (issue 16; docs/design/README.md,
// "Releases"). Shares no code with build/macho-sign.ts (only the identifier constant): it parses the Mach-O load commands
// and the signature itself and recomputes every hash, so a bug in the signer cannot hide.
// `build:all` fails when either darwin executable does not pass.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BuildFailure } from './build-failure.ts';
import { SIGNING_IDENTIFIER } from './macho-sign.ts';

/** What a passing file's signature says. */
export interface SignatureReport {
  readonly identifier: string;
  /** Number of page hashes checked (all of them). */
  readonly pages: number;
  /** Bytes covered by the page hashes: everything before the signature. */
  readonly codeLimit: number;
}

/** Why a file fails, one finding per line. */
export class SignatureMismatch extends Error {
  override readonly name = 'SignatureMismatch';
  readonly findings: readonly string[];

  constructor(findings: readonly string[]) {
    super(`code signature does not verify: ${findings[0] ?? 'unknown reason'}`);
    this.findings = findings;
  }
}

/** Bounds-checked reads; every read past the end is a finding rather than a crash. */
class Reader {
  constructor(private readonly bytes: Uint8Array) {}
  private view = (at: number, size: number): DataView => {
    if (!Number.isInteger(at) || at < 0 || at + size > this.bytes.byteLength) throw new SignatureMismatch([`read of ${size} bytes at ${at} is outside the file`]);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset + at, size);
  };
  le32 = (at: number): number => this.view(at, 4).getUint32(0, true);
  le64 = (at: number): number => Number(this.view(at, 8).getBigUint64(0, true));
  be32 = (at: number): number => this.view(at, 4).getUint32(0, false);
  be64 = (at: number): number => Number(this.view(at, 8).getBigUint64(0, false));
  u8 = (at: number): number => this.view(at, 1).getUint8(0);
  cString = (at: number, limit: number): string => {
    const end = this.bytes.indexOf(0, at);
    if (at >= limit || end === -1 || end >= limit) throw new SignatureMismatch([`string at ${at} is not terminated inside its blob`]);
    return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(at, end));
  };
}

/**
 * Verifies the embedded code signature of a thin 64-bit Mach-O executable.
 *
 * Checks: LC_CODE_SIGNATURE's data ends the file, 16-byte aligned, inside __LINKEDIT, whose
 * filesize reaches the end of the file and whose vmsize covers it; the SuperBlob and every
 * blob index lie inside `datasize`; exactly one SHA-256 CodeDirectory (slot 0, no alternate
 * directories, no CMS signature with content), with the expected identifier, no team id, the
 * ad-hoc flag and no hardened-runtime flag; codeLimit equals the signature's offset (the
 * signed range covers everything before it); one hash per page up to codeLimit, every one
 * recomputed and compared; each non-zero special-slot hash matches its blob.
 *
 * @param file The whole executable.
 * @param expectedIdentifier The identifier the CodeDirectory must carry.
 * @returns What the signature covers.
 * @throws {SignatureMismatch} Listing every finding (page hash mismatches counted, the first few named).
 */
export function verifyMachOSignature(file: Uint8Array, expectedIdentifier: string): SignatureReport {
  const read = new Reader(file);
  const findings: string[] = [];
  if (read.le32(0) !== 0xfeedfacf) throw new SignatureMismatch(['not a 64-bit little-endian Mach-O file']);
  const commandCount = read.le32(16);
  const commandsEnd = 32 + read.le32(20);
  let signature: { dataoff: number; datasize: number } | undefined;
  let linkedit: { fileoff: number; filesize: number; vmsize: number } | undefined;
  let text: { fileoff: number; filesize: number } | undefined;
  let lastSegmentEnd = 0;
  for (let index = 0, at = 32; index < commandCount; index++) {
    const command = read.le32(at);
    const size = read.le32(at + 4);
    if (size < 8 || at + size > commandsEnd) throw new SignatureMismatch([`load command ${index} runs past sizeofcmds`]);
    if (command === 0x19) {
      const name = new TextDecoder('latin1').decode(file.subarray(at + 8, at + 24)).replace(/\0+$/, '');
      const segment = { vmsize: read.le64(at + 32), fileoff: read.le64(at + 40), filesize: read.le64(at + 48) };
      lastSegmentEnd = Math.max(lastSegmentEnd, segment.fileoff + segment.filesize);
      if (name === '__LINKEDIT') linkedit = segment;
      if (name === '__TEXT') text = segment;
    } else if (command === 0x1d) {
      if (signature !== undefined) findings.push('more than one LC_CODE_SIGNATURE');
      signature = { dataoff: read.le32(at + 8), datasize: read.le32(at + 12) };
    }
    at += size;
  }
  if (signature === undefined) throw new SignatureMismatch(['no LC_CODE_SIGNATURE load command']);
  if (linkedit === undefined || text === undefined) throw new SignatureMismatch(['no __TEXT or no __LINKEDIT segment']);
  const { dataoff, datasize } = signature;
  if (dataoff + datasize !== file.byteLength) findings.push(`signature ends at ${dataoff + datasize}, the file at ${file.byteLength}`);
  if (dataoff % 16 !== 0) findings.push(`signature offset ${dataoff} is not 16-byte aligned`);
  if (dataoff < linkedit.fileoff) findings.push('signature starts before __LINKEDIT');
  if (linkedit.fileoff + linkedit.filesize !== file.byteLength) {
    findings.push(`__LINKEDIT ends at ${linkedit.fileoff + linkedit.filesize}, the file at ${file.byteLength}`);
  }
  if (linkedit.vmsize < linkedit.filesize) findings.push(`__LINKEDIT vmsize ${linkedit.vmsize} is below its filesize ${linkedit.filesize}`);
  if (lastSegmentEnd > linkedit.fileoff + linkedit.filesize) findings.push('a segment extends past __LINKEDIT');
  if (findings.length > 0) throw new SignatureMismatch(findings);

  const end = dataoff + datasize;
  if (read.be32(dataoff) !== 0xfade0cc0) throw new SignatureMismatch(['no embedded-signature SuperBlob at the signature offset']);
  const superLength = read.be32(dataoff + 4);
  const blobCount = read.be32(dataoff + 8);
  if (superLength > datasize || 12 + blobCount * 8 > superLength) throw new SignatureMismatch(['SuperBlob length or count exceeds datasize']);
  const blobs = new Map<number, { at: number; length: number }>();
  for (let index = 0; index < blobCount; index++) {
    const type = read.be32(dataoff + 12 + index * 8);
    const at = dataoff + read.be32(dataoff + 16 + index * 8);
    const length = read.be32(at + 4);
    if (at + length > dataoff + superLength || length < 8) throw new SignatureMismatch([`blob of slot ${type} lies outside the SuperBlob`]);
    if (blobs.has(type)) findings.push(`slot ${type} appears twice`);
    blobs.set(type, { at, length });
  }
  for (const type of blobs.keys()) {
    if (type >= 0x1000 && type < 0x1005) findings.push(`alternate CodeDirectory in slot 0x${type.toString(16)} (only one SHA-256 directory is expected)`);
    if (type === 0x10000 && (blobs.get(type)?.length ?? 0) > 8) findings.push('a CMS signature with content (not ad-hoc)');
  }
  const directory = blobs.get(0);
  if (directory === undefined || read.be32(directory.at) !== 0xfade0c02) throw new SignatureMismatch([...findings, 'no CodeDirectory in slot 0']);
  const cd = directory.at;
  const cdEnd = cd + directory.length;
  const version = read.be32(cd + 8);
  const flags = read.be32(cd + 12);
  const hashOffset = read.be32(cd + 16);
  const identOffset = read.be32(cd + 20);
  const specialSlots = read.be32(cd + 24);
  const codeSlots = read.be32(cd + 28);
  const codeLimit32 = read.be32(cd + 32);
  const hashSize = read.u8(cd + 36);
  const hashType = read.u8(cd + 37);
  const pageShift = read.u8(cd + 39);
  const teamOffset = version >= 0x20200 ? read.be32(cd + 48) : 0;
  const codeLimit64 = version >= 0x20300 ? read.be64(cd + 56) : 0;
  const codeLimit = codeLimit64 !== 0 ? codeLimit64 : codeLimit32;
  const identifier = read.cString(cd + identOffset, cdEnd);
  if (identifier !== expectedIdentifier) findings.push(`identifier is ${JSON.stringify(identifier)}, expected ${JSON.stringify(expectedIdentifier)}`);
  if (teamOffset !== 0) findings.push(`team id ${JSON.stringify(read.cString(cd + teamOffset, cdEnd))} present`);
  if ((flags & 0x2) === 0) findings.push(`flags 0x${flags.toString(16)} lack CS_ADHOC`);
  if ((flags & 0x10000) !== 0) findings.push('hardened runtime flag set without entitlements');
  if (hashType !== 2 || hashSize !== 32) findings.push(`hash type ${hashType} size ${hashSize}, expected SHA-256`);
  if (pageShift < 12 || pageShift > 16) findings.push(`page size 2^${pageShift} is not supported`);
  if (codeLimit !== dataoff) findings.push(`signed range ends at ${codeLimit}, the signature starts at ${dataoff}: ${dataoff - codeLimit} bytes unsigned`);
  if (version >= 0x20400) {
    if (read.be64(cd + 64) !== text.fileoff || read.be64(cd + 72) !== text.filesize) findings.push('execSegBase/execSegLimit do not match __TEXT');
  }
  const pageSize = 2 ** pageShift;
  const expectedSlots = Math.ceil(codeLimit / pageSize);
  if (codeSlots !== expectedSlots) findings.push(`${codeSlots} page hashes for ${expectedSlots} pages`);
  if (findings.length > 0 || hashType !== 2) throw new SignatureMismatch(findings);
  if (cd + hashOffset + codeSlots * hashSize > cdEnd || hashOffset < specialSlots * hashSize) {
    throw new SignatureMismatch(['hash slots lie outside the CodeDirectory']);
  }

  const mismatched: number[] = [];
  for (let page = 0; page < codeSlots; page++) {
    const start = page * pageSize;
    const digest = createHash('sha256')
      .update(file.subarray(start, Math.min(start + pageSize, codeLimit)))
      .digest();
    const stored = file.subarray(cd + hashOffset + page * hashSize, cd + hashOffset + (page + 1) * hashSize);
    if (!digest.equals(stored)) mismatched.push(page);
  }
  if (mismatched.length > 0) {
    const named = mismatched.slice(0, 5).map((page) => `${page} (bytes ${page * pageSize}…${Math.min((page + 1) * pageSize, codeLimit) - 1})`);
    findings.push(`${mismatched.length} of ${codeSlots} page hashes do not match; first: ${named.join(', ')}`);
  }
  for (let slot = 1; slot <= specialSlots; slot++) {
    const stored = file.subarray(cd + hashOffset - slot * hashSize, cd + hashOffset - (slot - 1) * hashSize);
    const blob = blobs.get(slot);
    if (blob === undefined) {
      if (stored.some((byte) => byte !== 0)) findings.push(`special slot -${slot} has a hash but no blob`);
      continue;
    }
    const digest = createHash('sha256')
      .update(file.subarray(blob.at, blob.at + blob.length))
      .digest();
    if (!digest.equals(stored)) findings.push(`special slot -${slot} hash does not match its blob`);
  }
  if (end !== file.byteLength) findings.push('signature data does not end the file');
  if (findings.length > 0) throw new SignatureMismatch(findings);
  return { identifier, pages: codeSlots, codeLimit };
}

/**
 * The build step: verifies one darwin executable written by build/.
 *
 * @param file Absolute path of the executable.
 * @throws {BuildFailure} Listing the findings when the signature does not verify.
 */
export function verifyDarwinExecutable(file: string): void {
  try {
    verifyMachOSignature(readFileSync(file), SIGNING_IDENTIFIER);
  } catch (error) {
    if (!(error instanceof SignatureMismatch)) throw error;
    throw new BuildFailure(`verify ${path.basename(file)}: its code signature does not verify.`, error.findings, { cause: error });
  }
}

// `bun build/macho-verify.ts <file>…`: checks darwin executables, for example downloaded ones.
if (import.meta.main) {
  let failed = false;
  for (const file of process.argv.slice(2)) {
    try {
      const report = verifyMachOSignature(readFileSync(file), SIGNING_IDENTIFIER);
      console.log(`${file}: OK, ${report.pages} page hashes over ${report.codeLimit} bytes, identifier ${report.identifier}`);
    } catch (error) {
      if (!(error instanceof SignatureMismatch)) throw error;
      failed = true;
      console.error(`${file}: FAILED`);
      for (const finding of error.findings) console.error(`  ${finding}`);
    }
  }
  process.exit(failed ? 1 : 0);
}
