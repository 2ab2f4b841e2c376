// The image's own SBOM (issue 30 §4): what one image adds to its executable, as CycloneDX 1.6
// JSON built with @cyclonedx/cyclonedx-library: the container as the root, Debian's libc6 with
// its version, Debian purl and the .deb's SHA-256, and the executable, whose full SBOM (npm
// packages, Bun runtime, native libraries) lies beside it in the image. Deterministic.
import { Enums, Models, Serialize, Spec } from '@cyclonedx/cyclonedx-library';

/** What the image SBOM describes. */
export interface ImageSbomFacts {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  readonly architecture: 'amd64' | 'arm64';
  readonly libcVersion: string;
  /** SHA-256 of the libc6 .deb, lowercase hex. */
  readonly libcDebSha256: string;
  /** SHA-256 of the executable, lowercase hex. */
  readonly executableSha256: string;
  /** The executable's path in the image. */
  readonly executablePath: string;
  /** The path of the executable's SBOM in the image. */
  readonly executableSbomPath: string;
}

/**
 * Serializes the image SBOM.
 *
 * @param facts The image's name, version, architecture and what it carries.
 * @returns CycloneDX 1.6 JSON text, ending in a newline.
 */
export function imageSbomJson(facts: ImageSbomFacts): string {
  const bom = new Models.Bom();
  bom.metadata.component = new Models.Component(Enums.ComponentType.Container, facts.name, {
    version: facts.version,
    bomRef: `${facts.name}-image@${facts.version}-${facts.architecture}`,
    licenses: new Models.LicenseRepository([new Models.SpdxLicense(facts.license)]),
  });
  const libcHashes = new Models.HashDictionary();
  libcHashes.set(Enums.HashAlgorithm['SHA-256'], facts.libcDebSha256);
  bom.components.add(
    new Models.Component(Enums.ComponentType.Library, 'libc6', {
      version: facts.libcVersion,
      bomRef: `libc6@${facts.libcVersion}`,
      purl: `pkg:deb/debian/libc6@${encodeURIComponent(facts.libcVersion)}?arch=${facts.architecture}&distro=debian-12`,
      description: 'GNU C Library from Debian: the dynamic loader, libc, libm, libpthread and libdl the executable loads',
      hashes: libcHashes,
      licenses: new Models.LicenseRepository([new Models.NamedLicense('LGPL-2.1-or-later and others, see /usr/share/doc/libc6/copyright')]),
    }),
  );
  const exeHashes = new Models.HashDictionary();
  exeHashes.set(Enums.HashAlgorithm['SHA-256'], facts.executableSha256);
  bom.components.add(
    new Models.Component(Enums.ComponentType.Application, facts.name, {
      version: facts.version,
      bomRef: `${facts.name}@${facts.version}-linux-${facts.architecture}`,
      description: `${facts.executablePath}; its SBOM (npm packages, Bun runtime, native libraries) is ${facts.executableSbomPath}`,
      hashes: exeHashes,
      licenses: new Models.LicenseRepository([new Models.SpdxLicense(facts.license)]),
    }),
  );
  const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6));
  return `${serializer.serialize(bom, { sortLists: true, space: 2 })}\n`;
}
