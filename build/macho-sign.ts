// Ad-hoc code signature for the darwin executables (issue 16; docs/design/README.md, "Releases").
// Bun 1.4.4 leaves darwin-x64 with its own, no longer matching signature (identifier `bun`,
// a team id, 75 wrong page hashes, 5.3 MB past the signed range) and signs darwin-arm64 as
// `a.out`. After compiling, this replaces the signature of either with a fresh one: a
// SuperBlob holding one CodeDirectory (version 0x20400, flags adhoc | linker-signed, no
// special slots, no team id, identifier `external-context`) with a SHA-256 hash of every
// 4 KiB page of the file up to the signature. The same form the Go toolchain and ld64 write
// for a linker-signed executable; no hardened runtime, so JIT needs no entitlement.
// build/macho-verify.ts checks the result independently.
import { createHash } from 'node:crypto';

/** The identifier our signatures carry. */
export const SIGNING_IDENTIFIER = 'external-context';

const MH_MAGIC_64 = 0xfeedfacf;
const MH_EXECUTE = 2;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CPU_TYPE_ARM64 = 0x0100000c;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CD_VERSION = 0x20400;
const CS_ADHOC = 0x2;
const CS_LINKER_SIGNED = 0x20000;
const CS_HASHTYPE_SHA256 = 2;
const CS_EXECSEG_MAIN_BINARY = 1;
const PAGE_SHIFT = 12;
const PAGE_SIZE = 1 << PAGE_SHIFT;
const HASH_SIZE = 32;
/** CodeDirectory header of version 0x20400, up to and including execSegFlags. */
const CD_HEADER_SIZE = 88;
/** SuperBlob header (magic, length, count) plus one blob index (type, offset). */
const SUPERBLOB_HEADER_SIZE = 12 + 8;

/** A Mach-O file the signer cannot handle; the message says what is wrong. */
export class MachOSignError extends Error {
  override readonly name = 'MachOSignError';
}

interface Segment {
  /** Offset of the load command in the file. */
  readonly commandOffset: number;
  readonly name: string;
  readonly fileoff: number;
  readonly filesize: number;
}

/**
 * Returns a copy of a thin 64-bit Mach-O executable with its code signature replaced by an
 * ad-hoc one. The file must already have an LC_CODE_SIGNATURE whose data ends the file inside
 * the last segment, __LINKEDIT (what Bun writes). The signature's offset stays; its size,
 * `datasize`, __LINKEDIT's filesize and vmsize, and the file size change together.
 *
 * @param file The executable as written by `bun build --compile --target=bun-darwin-*`.
 * @param identifier The CodeDirectory identifier (default `external-context`).
 * @returns The signed executable.
 * @throws {MachOSignError} When the file is not such an executable.
 */
export function signMachO(file: Uint8Array, identifier: string = SIGNING_IDENTIFIER): Uint8Array {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (file.byteLength < 32 || view.getUint32(0, true) !== MH_MAGIC_64) throw new MachOSignError('not a 64-bit little-endian Mach-O file');
  if (view.getUint32(12, true) !== MH_EXECUTE) throw new MachOSignError('not an executable (MH_EXECUTE)');
  const cpuType = view.getUint32(4, true);
  const commandCount = view.getUint32(16, true);
  const commandsEnd = 32 + view.getUint32(20, true);
  if (commandsEnd > file.byteLength) throw new MachOSignError('load commands run past the end of the file');
  const segments: Segment[] = [];
  let signatureCommand: number | undefined;
  let offset = 32;
  for (let index = 0; index < commandCount; index++) {
    if (offset + 8 > commandsEnd) throw new MachOSignError('load commands run past sizeofcmds');
    const command = view.getUint32(offset, true);
    const size = view.getUint32(offset + 4, true);
    if (size < 8 || offset + size > commandsEnd) throw new MachOSignError(`load command ${index} has a bad size`);
    if (command === LC_SEGMENT_64) {
      segments.push({
        commandOffset: offset,
        name: latin1String(file.subarray(offset + 8, offset + 24)),
        fileoff: safeNumber(view.getBigUint64(offset + 40, true)),
        filesize: safeNumber(view.getBigUint64(offset + 48, true)),
      });
    } else if (command === LC_CODE_SIGNATURE) {
      signatureCommand = offset;
    }
    offset += size;
  }
  if (signatureCommand === undefined) throw new MachOSignError('no LC_CODE_SIGNATURE load command');
  const dataoff = view.getUint32(signatureCommand + 8, true);
  const datasize = view.getUint32(signatureCommand + 12, true);
  const text = segments.find((segment) => segment.name === '__TEXT');
  const linkedit = segments.find((segment) => segment.name === '__LINKEDIT');
  if (text === undefined || linkedit === undefined) throw new MachOSignError('no __TEXT or no __LINKEDIT segment');
  if (segments.some((segment) => segment.fileoff + segment.filesize > linkedit.fileoff + linkedit.filesize)) {
    throw new MachOSignError('__LINKEDIT is not the last segment in the file');
  }
  if (dataoff + datasize !== file.byteLength || linkedit.fileoff + linkedit.filesize !== file.byteLength) {
    throw new MachOSignError('the code signature and __LINKEDIT do not end the file');
  }
  if (dataoff < linkedit.fileoff || dataoff % 16 !== 0 || dataoff < commandsEnd) {
    throw new MachOSignError('the code signature does not start 16-byte aligned inside __LINKEDIT');
  }

  const identifierBytes = new TextEncoder().encode(`${identifier}\0`);
  const pageCount = Math.ceil(dataoff / PAGE_SIZE);
  const hashOffset = CD_HEADER_SIZE + identifierBytes.byteLength;
  const directoryLength = hashOffset + pageCount * HASH_SIZE;
  const signatureLength = SUPERBLOB_HEADER_SIZE + directoryLength;
  const signed = new Uint8Array(dataoff + signatureLength);
  signed.set(file.subarray(0, dataoff));
  const out = new DataView(signed.buffer);

  // Load commands first: the header page is hashed with its final content.
  out.setUint32(signatureCommand + 12, signatureLength, true);
  const linkeditSize = dataoff + signatureLength - linkedit.fileoff;
  const vmAlign = cpuType === CPU_TYPE_ARM64 ? 0x4000 : 0x1000;
  out.setBigUint64(linkedit.commandOffset + 32, BigInt(roundUp(linkeditSize, vmAlign)), true);
  out.setBigUint64(linkedit.commandOffset + 48, BigInt(linkeditSize), true);

  // SuperBlob and CodeDirectory fields are big-endian.
  let at = dataoff;
  const put32 = (value: number): void => {
    out.setUint32(at, value, false);
    at += 4;
  };
  const put64 = (value: number): void => {
    out.setBigUint64(at, BigInt(value), false);
    at += 8;
  };
  put32(CSMAGIC_EMBEDDED_SIGNATURE);
  put32(signatureLength);
  put32(1);
  put32(CSSLOT_CODEDIRECTORY);
  put32(SUPERBLOB_HEADER_SIZE);
  const directory = at;
  put32(CSMAGIC_CODEDIRECTORY);
  put32(directoryLength);
  put32(CD_VERSION);
  put32(CS_ADHOC | CS_LINKER_SIGNED);
  put32(hashOffset);
  put32(CD_HEADER_SIZE); // identOffset
  put32(0); // nSpecialSlots
  put32(pageCount); // nCodeSlots
  put32(dataoff); // codeLimit
  signed.set([HASH_SIZE, CS_HASHTYPE_SHA256, 0, PAGE_SHIFT], at); // hashSize, hashType, platform, pageSize
  at += 4;
  put32(0); // spare2
  put32(0); // scatterOffset
  put32(0); // teamOffset: no team id
  put32(0); // spare3
  put64(0); // codeLimit64: codeLimit fits in 32 bits
  put64(text.fileoff); // execSegBase
  put64(text.filesize); // execSegLimit
  put64(CS_EXECSEG_MAIN_BINARY); // execSegFlags
  signed.set(identifierBytes, directory + CD_HEADER_SIZE);
  for (let page = 0; page < pageCount; page++) {
    const start = page * PAGE_SIZE;
    const digest = createHash('sha256')
      .update(signed.subarray(start, Math.min(start + PAGE_SIZE, dataoff)))
      .digest();
    signed.set(digest, directory + hashOffset + page * HASH_SIZE);
  }
  return signed;
}

function roundUp(value: number, alignment: number): number {
  return Math.ceil(value / alignment) * alignment;
}

function latin1String(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return new TextDecoder('latin1').decode(end === -1 ? bytes : bytes.subarray(0, end));
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new MachOSignError('a segment offset or size is out of range');
  return Number(value);
}
