import { pickRead, pickWrite, type PathWord } from './paths.js';
import type { Rng } from './prng.js';

/** One generated command with what it was built from. `@B@` stands for the fixture base. */
export interface Generated {
  text: string;
  /** `cmd:NAME`, `opt:NAME:--long`, `construct:NAME`, `path:SHAPE`, `lang:NAME`, `family:N` tags. */
  tags: string[];
  /** Built only from workspace paths and benign constructs: asking about it is over-asking. */
  harmless: boolean;
  /** The command names and constructs, sorted: the "shape" over-asking is reported by. */
  shape: string;
}

/** The state of one command being generated: the PRNG, the tags it collects, whether it stays harmless. */
export class Gen {
  readonly rng: Rng;
  readonly tags = new Set<string>();
  harmless = true;
  /** When set, every path is inside the workspace (the harmless corpus for the over-asking count). */
  readonly benign: boolean;

  constructor(rng: Rng, benign: boolean) {
    this.rng = rng;
    this.benign = benign;
  }

  tag(t: string): void {
    this.tags.add(t);
  }

  /** Marks the command as not harmless (it uses an attack shape). */
  hostile(t?: string): void {
    this.harmless = false;
    if (t) this.tag(t);
  }

  #path(p: PathWord, write: boolean): string {
    this.tag(`path:${p.shape}`);
    // A read root may be read, never written.
    if (p.shape !== 'inside' && (write || p.shape !== 'readroot')) this.harmless = false;
    return p.text;
  }

  read(): string {
    return this.#path(pickRead(this.rng, this.benign), false);
  }

  write(): string {
    return this.#path(pickWrite(this.rng, this.benign), true);
  }

  /** A directory word: inside ones when benign. */
  dir(): string {
    const inside = ['src', 'sub', '.', 'src/deep', 'nested', 'self', 'src-link'];
    const hostile = ['..', 'link-out-dir', '../outside', 'self/..', '../ws-evil', '@B@/outside', '~', 'rel-out', '-', '/'];
    if (this.benign || this.rng.chance(0.6)) {
      const d = this.rng.pick(inside);
      if (d === 'nested' || d === 'self') this.harmless = false;
      return d;
    }
    this.hostile('path:dir-out');
    return this.rng.pick(hostile);
  }

  pick<T>(items: readonly T[]): T {
    return this.rng.pick(items);
  }

  chance(p: number): boolean {
    return this.rng.chance(p);
  }
}

/** An option a command takes; `v` says what its value is. */
export interface Opt {
  s?: string;
  l?: string;
  v?: 'read' | 'write' | 'num' | 'text' | 'dir' | ((g: Gen) => string);
  /** Hostile even with inside paths (it runs something or changes how the tool reads its operands). */
  risky?: boolean;
  /** It follows links (threat family 25): hostile, since the workspace holds links out; tagged `follow:CMD`. */
  follows?: boolean;
}

/** Renders `count` options of `opts` as the tool accepts them: long, GNU long prefixes, `--opt=value`, clustered short. */
export function renderOptions(g: Gen, cmd: string, opts: readonly Opt[], count: number): string[] {
  const out: string[] = [];
  const cluster: string[] = [];
  for (let i = 0; i < count && opts.length > 0; i++) {
    const o = g.pick(opts);
    if (o.risky) g.hostile();
    if (o.follows) g.hostile(`follow:${cmd}`);
    const value = o.v === undefined ? undefined : optionValue(g, o.v);
    const useLong = o.l !== undefined && (o.s === undefined || g.chance(0.5));
    if (useLong) {
      const full = o.l as string;
      let name = full;
      if (full.length > 4 && g.chance(0.3)) {
        name = full.slice(0, g.rng.int(3, full.length - 1));
        g.tag('optform:gnu-prefix');
        if (!g.benign) g.hostile();
      }
      g.tag(`opt:${cmd}:--${full}`);
      if (value === undefined) out.push(`--${name}`);
      else if (g.chance(0.5)) {
        out.push(`--${name}=${value}`);
        g.tag('optform:long-equals');
      } else out.push(`--${name}`, value);
      continue;
    }
    if (o.s === undefined) continue;
    g.tag(`opt:${cmd}:-${o.s}`);
    if (value === undefined) {
      cluster.push(o.s);
      continue;
    }
    if (cluster.length > 0 && g.chance(0.5)) {
      out.push(`-${cluster.splice(0).join('')}${o.s}`, value);
      g.tag('optform:cluster-value');
    } else if (g.chance(0.3)) {
      out.push(`-${o.s}${value}`);
      g.tag('optform:attached');
    } else out.push(`-${o.s}`, value);
  }
  if (cluster.length > 1) g.tag('optform:cluster');
  if (cluster.length > 0) out.unshift(`-${cluster.join('')}`);
  return out;
}

function optionValue(g: Gen, v: NonNullable<Opt['v']>): string {
  switch (v) {
    case 'read':
      return g.read();
    case 'write':
      return g.write();
    case 'num':
      return g.pick(['1', '2', '5', '10']);
    case 'text':
      return g.pick(['x', ',', ':', 'TODO', "'%s'"]);
    case 'dir':
      return g.dir();
    default:
      return v(g);
  }
}
