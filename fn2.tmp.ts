import { API } from 'typescript/unstable/async';
import { isFunctionLikeDeclaration as isFunctionLike, getTokenPosOfNode } from 'typescript/unstable/ast';
import path from 'node:path';
const t0 = performance.now();
const api = new API({ cwd: process.cwd() });
const snap = await api.updateSnapshot({ openProjects: ['/tmp/fncfg/tsconfig.json'] });
const project = snap.getProjects()[0]!;
const names = (await project.program.getSourceFileNames()).filter((n: string) => n.includes('/src/'));
console.log(names.length, performance.now() - t0);
let count = 0;
for (const name of names) {
  const sf: any = await project.program.getSourceFile(name);
  const text = sf.text;
  const lineOf = (pos: number) => text.slice(0, pos).split('\n').length;
  const visit = (node: any): void => {
    if (isFunctionLike(node) && (node as any).body) {
      const start = lineOf(getTokenPosOfNode(node, sf));
      const end = lineOf(node.end);
      if (end - start + 1 > 60) console.log(end - start + 1, name + ':' + start);
      count++;
    }
    node.forEachChild(visit);
  };
  visit(sf);
}
console.log(count, performance.now() - t0);
await api.close();
