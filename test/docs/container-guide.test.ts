// docs/deploy.md "As a container" against the code it describes (the administrator trial found
// `podman load` failing, the default loopback listen and the probes' Host undocumented): the
// archive name and tag, the serve --http default listen, and the Host a probe must send, by the
// allow-list the server builds (src/mcp/http/allowed-hosts.ts).
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IMAGE_ARCHIVE_NAME, imageTag } from '../../build/image.ts';
import { IMAGE_PLATFORMS } from '../../build/image-rootfs.ts';
import { HTTP_HELP_OPTIONS as serveHelp } from '../../src/cli/serve-flags.ts';
import { allowedHosts, isAllowedHost } from '../../src/mcp/http/allowed-hosts.ts';
import { REPO_ROOT } from '../support/paths.ts';

const guide = readFileSync(join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8');
const section = guide.slice(guide.indexOf('### As a container'), guide.indexOf('### Where the corpus goes'));

describe('docs/deploy.md, As a container', () => {
  test('pulls the archive by tag with oci-archive and names the image podman gives it', () => {
    const amd64 = IMAGE_PLATFORMS.find((platform) => platform.architecture === 'amd64');
    expect(amd64).toBeDefined();
    const tag = imageTag(amd64 as (typeof IMAGE_PLATFORMS)[number]);
    expect(section).toContain(`podman pull oci-archive:/srv/release/${IMAGE_ARCHIVE_NAME}:${tag}`);
    expect(section).toContain(`podman tag localhost/${tag}:latest localhost/external-context:0.1.0`);
    expect(section).toContain('more than one image in oci, choose an image');
  });

  test('names the serve --http default listen address the code uses', () => {
    expect(serveHelp).toContain('(127.0.0.1:8788)');
    expect(section).toContain('listens on `127.0.0.1:8788` by default');
  });

  test("the probes' Host value is the --resource host the server allows; the kubelet's default Host is refused", () => {
    const resource = /--resource (https:\/\/\S+)/u.exec(section)?.[1] as string;
    expect(resource).toBe('https://context.example.com/mcp');
    const probeHosts = [...section.matchAll(/- name: Host\n\s+value: (\S+)/gu)].map((match) => match[1]);
    expect(probeHosts).toEqual(['context.example.com', 'context.example.com']);
    const allowed = allowedHosts('0.0.0.0', 8788, resource);
    expect([...allowed].sort()).toEqual(['0.0.0.0:8788', 'context.example.com']);
    expect(isAllowedHost(allowed, 'context.example.com')).toBe(true);
    for (const refused of ['10.1.2.3:8788', 'context.example.com:443', 'localhost:8788']) expect(isAllowedHost(allowed, refused)).toBe(false);
    // The pod-address way: the kubelet's default Host is then allowed.
    expect(isAllowedHost(allowedHosts('10.1.2.3', 8788, resource), '10.1.2.3:8788')).toBe(true);
  });
});
