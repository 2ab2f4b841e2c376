// The darwin code signature (issue 16.1): build/macho-sign.ts writes it, build/macho-verify.ts
// checks it independently. A small synthetic Mach-O exercises every finding; the real darwin
// executables of `npm run build:all` must verify, and fail once a byte is corrupted.
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MachOSignError, signMachO, SIGNING_IDENTIFIER } from '../../build/macho-sign.ts';
import { SignatureMismatch, verifyMachOSignature } from '../../build/macho-verify.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { registerToolGate } from '../support/tool-tier.ts';
import { LIVENESS_MS } from '../support/liveness.ts';

const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;

/**
 * A minimal MH_EXECUTE: __TEXT (three pages and a bit of seeded bytes), then __LINKEDIT
 * holding a placeholder signature of `placeholder` bytes at the end, like Bun's output.
 */
function syntheticMachO(options: { withSignatureCommand?: boolean; placeholder?: number; cpu?: number } = {}): Uint8Array {
  const textSize = 3 * 4096 + 100;
  const dataoff = Math.ceil(textSize / 16) * 16 + 48;
  const placeholder = options.placeholder ?? 64;
  const file = new Uint8Array(dataoff + placeholder);
  const view = new DataView(file.buffer);
  let seed = 0x2545f491;
  for (let index = 0; index < file.length; index++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    file[index] = seed >>> 24;
  }
  const commands = options.withSignatureCommand === false ? 2 : 3;
  view.setUint32(0, 0xfeedfacf, true);
  view.setUint32(4, options.cpu ?? 0x0100000c, true);
  view.setUint32(8, 0, true);
  view.setUint32(12, 2, true); // MH_EXECUTE
  view.setUint32(16, commands, true);
  view.setUint32(20, 72 * 2 + (commands === 3 ? 16 : 0), true);
  view.setUint32(24, 0, true);
  view.setUint32(28, 0, true);
  const segment = (at: number, name: string, fileoff: number, filesize: number): void => {
    file.fill(0, at, at + 72);
    view.setUint32(at, LC_SEGMENT_64, true);
    view.setUint32(at + 4, 72, true);
    file.set(new TextEncoder().encode(name), at + 8);
    view.setBigUint64(at + 24, 0x100000000n + BigInt(fileoff), true);
    view.setBigUint64(at + 32, BigInt(Math.ceil(filesize / 0x4000) * 0x4000), true);
    view.setBigUint64(at + 40, BigInt(fileoff), true);
    view.setBigUint64(at + 48, BigInt(filesize), true);
  };
  segment(32, '__TEXT', 0, textSize);
  segment(104, '__LINKEDIT', textSize, file.length - textSize);
  if (commands === 3) {
    view.setUint32(176, LC_CODE_SIGNATURE, true);
    view.setUint32(180, 16, true);
    view.setUint32(184, dataoff, true);
    view.setUint32(188, placeholder, true);
  }
  return file;
}

function findings(file: Uint8Array, identifier = SIGNING_IDENTIFIER): readonly string[] {
  try {
    verifyMachOSignature(file, identifier);
    return [];
  } catch (error) {
    if (!(error instanceof SignatureMismatch)) throw error;
    return error.findings;
  }
}

/** Offset of the CodeDirectory in a file signed by signMachO (one blob, right after the index). */
function directoryOffset(file: Uint8Array): number {
  const view = new DataView(file.buffer, file.byteOffset);
  return view.getUint32(184, true) + 20;
}

describe('signMachO() and verifyMachOSignature() on a synthetic executable', () => {
  test('a signed file verifies: every page up to the signature hashed, our identifier, no team', () => {
    const signed = signMachO(syntheticMachO());
    const dataoff = new DataView(signed.buffer).getUint32(184, true);
    expect(verifyMachOSignature(signed, SIGNING_IDENTIFIER)).toEqual({ identifier: 'external-context', pages: Math.ceil(dataoff / 4096), codeLimit: dataoff });
  });

  test('datasize, __LINKEDIT filesize and vmsize and the file size change together, bigger or smaller than before', () => {
    for (const placeholder of [16, 4096 * 4]) {
      const signed = signMachO(syntheticMachO({ placeholder }));
      const view = new DataView(signed.buffer);
      const dataoff = view.getUint32(184, true);
      const datasize = view.getUint32(188, true);
      expect(dataoff + datasize).toBe(signed.length);
      const fileoff = Number(view.getBigUint64(104 + 40, true));
      const filesize = Number(view.getBigUint64(104 + 48, true));
      expect(fileoff + filesize).toBe(signed.length);
      expect(Number(view.getBigUint64(104 + 32, true)) % 0x4000).toBe(0);
      expect(Number(view.getBigUint64(104 + 32, true))).toBeGreaterThanOrEqual(filesize);
      expect(findings(signed)).toEqual([]);
    }
  });

  test('signing is deterministic', () => {
    expect(Buffer.from(signMachO(syntheticMachO())).equals(Buffer.from(signMachO(syntheticMachO())))).toBe(true);
  });

  test('a corrupted byte in the code fails and names the page', () => {
    const signed = signMachO(syntheticMachO());
    signed[4096 + 7] = (signed[4096 + 7] ?? 0) ^ 0xff;
    expect(findings(signed)).toEqual([expect.stringMatching(/^1 of 4 page hashes do not match; first: 1 \(bytes 4096…8191\)$/)]);
  });

  test('a changed load command fails (the header page is signed too)', () => {
    const signed = signMachO(syntheticMachO());
    signed[28] = 1; // reserved field of the header
    expect(findings(signed)[0]).toMatch(/^1 of 4 page hashes do not match; first: 0 /);
  });

  test('an unsigned tail before the signature fails', () => {
    const signed = signMachO(syntheticMachO());
    const view = new DataView(signed.buffer);
    const cd = directoryOffset(signed);
    const dataoff = view.getUint32(184, true);
    view.setUint32(cd + 32, dataoff - 4096, false); // codeLimit one page short
    expect(findings(signed)).toContain(`signed range ends at ${dataoff - 4096}, the signature starts at ${dataoff}: 4096 bytes unsigned`);
  });

  test('inconsistent datasize or __LINKEDIT size fails', () => {
    const shortData = signMachO(syntheticMachO());
    new DataView(shortData.buffer).setUint32(188, new DataView(shortData.buffer).getUint32(188, true) - 4, true);
    expect(findings(shortData)[0]).toMatch(/^signature ends at \d+, the file at \d+$/);
    const shortLinkedit = signMachO(syntheticMachO());
    const view = new DataView(shortLinkedit.buffer);
    view.setBigUint64(104 + 48, view.getBigUint64(104 + 48, true) - 1n, true);
    expect(findings(shortLinkedit)[0]).toMatch(/^__LINKEDIT ends at \d+, the file at \d+$/);
  });

  test('a truncated file fails without a crash', () => {
    const signed = signMachO(syntheticMachO());
    expect(findings(signed.subarray(0, signed.length - 100)).length).toBeGreaterThan(0);
  });

  test('another identifier fails', () => {
    expect(findings(signMachO(syntheticMachO()), 'bun')).toEqual(['identifier is "external-context", expected "bun"']);
  });

  test('the signer refuses a file without LC_CODE_SIGNATURE, and anything that is not a Mach-O executable', () => {
    expect(() => signMachO(syntheticMachO({ withSignatureCommand: false }))).toThrow(MachOSignError);
    expect(() => signMachO(new Uint8Array(64))).toThrow('not a 64-bit little-endian Mach-O file');
  });
});

const DARWIN_FILES = ['external-context-darwin-x64', 'external-context-darwin-arm64'].map((name) => join(REPO_ROOT, 'dist', name));
const absent = DARWIN_FILES.filter((file) => !existsSync(file));
const tier = {
  name: 'darwin executables',
  missing: absent.length === 0 ? undefined : `${absent.map((file) => file.slice(REPO_ROOT.length + 1)).join(', ')} not built`,
  remedy: 'run npm run build:all',
};
registerToolGate(tier);

describe.skipIf(tier.missing !== undefined)('the darwin executables of build:all', () => {
  for (const file of DARWIN_FILES) {
    test(
      `${file.slice(REPO_ROOT.length + 1)} verifies, and fails once one byte of the bundled code changes`,
      () => {
        const bytes = readFileSync(file);
        const report = verifyMachOSignature(bytes, SIGNING_IDENTIFIER);
        expect(report.pages).toBe(Math.ceil(report.codeLimit / 4096));
        // A byte in the middle of the file: the code Bun embedded lies there or just before.
        // Flipped in place: `bytes` is this test's own copy of the file, and copying 100 MB
        // with Uint8Array.from() (element by element) cost ~10 s of CPU per file.
        const at = Math.floor(report.codeLimit * 0.95);
        bytes[at] = (bytes[at] ?? 0) ^ 0x01;
        expect(findings(bytes)).toEqual([expect.stringMatching(new RegExp(`^1 of ${report.pages} page hashes do not match; first: ${Math.floor(at / 4096)} `))]);
      },
      LIVENESS_MS,
    );
  }
});
