/**
 * The navigation fixture (issue 22), in TypeScript and in Python: an interface (abstract base)
 * with two implementations, a function called from several files (once through an aliased
 * import), a class method, and a function with 500 call sites. Line and column numbers the
 * tests assert are one-based, as the model sees them.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Call sites of `tick` in the many-references file. */
export const TICK_CALLS = 500;

const TS_FILES: Record<string, string> = {
  'tsconfig.json': '{"compilerOptions":{"strict":true,"noEmit":true,"target":"ES2022","module":"ESNext","moduleResolution":"Bundler"},"include":["src"]}\n',
  'src/shapes.ts': ['/** A closed figure. */', 'export interface Shape {', '  /** Area in square units. */', '  area(): number;', '}', ''].join('\n'),
  'src/circle.ts': [
    "import type { Shape } from './shapes';",
    '',
    'export class Circle implements Shape {',
    '  constructor(private readonly r: number) {}',
    '  area(): number {',
    '    return Math.PI * this.r * this.r;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/square.ts': [
    "import type { Shape } from './shapes';",
    '',
    'export class Square implements Shape {',
    '  constructor(private readonly side: number) {}',
    '  area(): number {',
    '    return this.side * this.side;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/format.ts': [
    "import type { Shape } from './shapes';",
    '',
    "/** Formats a shape's area with two decimals. */",
    'export function describe(s: Shape): string {',
    '  return s.area().toFixed(2);',
    '}',
    '',
  ].join('\n'),
  'src/cart.ts': [
    "import type { Shape } from './shapes';",
    "import { describe } from './format';",
    '',
    'export class Cart {',
    '  private readonly items: Shape[] = [];',
    '  add(s: Shape): void {',
    '    this.items.push(s);',
    '  }',
    '  /** Sum of the areas of every item. */',
    '  total(): number {',
    '    return this.items.reduce((sum, s) => sum + s.area(), 0);',
    '  }',
    '  summary(): string {',
    "    return this.items.map((s) => describe(s)).join(', ');",
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/main.ts': [
    "import { Cart } from './cart';",
    "import { Circle } from './circle';",
    "import { Square } from './square';",
    "import { describe } from './format';",
    '',
    'const cart = new Cart();',
    'cart.add(new Circle(1));',
    'cart.add(new Square(2));',
    'console.log(describe(new Circle(2)), cart.total());',
    '',
  ].join('\n'),
  'src/report.ts': [
    "import { describe as describeShape } from './format';",
    "import { Square } from './square';",
    '',
    'export function report(): string {',
    '  return describeShape(new Square(3));',
    '}',
    '',
  ].join('\n'),
  'src/tick.ts': ['export function tick(n: number): number {', '  return n + 1;', '}', ''].join('\n'),
  'src/many.ts': ["import { tick } from './tick';", '', ...Array.from({ length: TICK_CALLS }, (_, i) => `tick(${i});`), ''].join('\n'),
};

const PY_FILES: Record<string, string> = {
  'pyproject.toml': '[tool.pyright]\n',
  'shapes.py': [
    'from abc import ABC, abstractmethod',
    '',
    '',
    'class Shape(ABC):',
    '    """A closed figure."""',
    '',
    '    @abstractmethod',
    '    def area(self) -> float:',
    '        """Area in square units."""',
    '',
  ].join('\n'),
  'circle.py': [
    'from shapes import Shape',
    '',
    '',
    'class Circle(Shape):',
    '    def __init__(self, r: float) -> None:',
    '        self.r = r',
    '',
    '    def area(self) -> float:',
    '        return 3.14159 * self.r * self.r',
    '',
  ].join('\n'),
  'square.py': [
    'from shapes import Shape',
    '',
    '',
    'class Square(Shape):',
    '    def __init__(self, side: float) -> None:',
    '        self.side = side',
    '',
    '    def area(self) -> float:',
    '        return self.side * self.side',
    '',
  ].join('\n'),
  'fmt.py': [
    'from shapes import Shape',
    '',
    '',
    'def describe(s: Shape) -> str:',
    '    """Formats a shape\'s area with two decimals."""',
    '    return f"{s.area():.2f}"',
    '',
  ].join('\n'),
  'cart.py': [
    'from fmt import describe',
    'from shapes import Shape',
    '',
    '',
    'class Cart:',
    '    def __init__(self) -> None:',
    '        self.items: list[Shape] = []',
    '',
    '    def add(self, s: Shape) -> None:',
    '        self.items.append(s)',
    '',
    '    def total(self) -> float:',
    '        """Sum of the areas of every item."""',
    '        return sum(s.area() for s in self.items)',
    '',
    '    def summary(self) -> str:',
    '        return ", ".join(describe(s) for s in self.items)',
    '',
  ].join('\n'),
  'main.py': [
    'from cart import Cart',
    'from circle import Circle',
    'from fmt import describe',
    'from square import Square',
    '',
    'cart = Cart()',
    'cart.add(Circle(1))',
    'cart.add(Square(2))',
    'print(describe(Circle(2)), cart.total())',
    '',
  ].join('\n'),
  'report.py': [
    'from fmt import describe as describe_shape',
    'from square import Square',
    '',
    '',
    'def report() -> str:',
    '    return describe_shape(Square(3))',
    '',
  ].join('\n'),
  'tick.py': ['def tick(n: int) -> int:', '    return n + 1', ''].join('\n'),
  'many.py': ['from tick import tick', '', ...Array.from({ length: TICK_CALLS }, (_, i) => `tick(${i})`), ''].join('\n'),
};

/** A navigation workspace on disk. */
export interface NavigationWorkspace {
  root: string;
  /** Writes a file (relative path). */
  put(path: string, text: string): void;
}

/**
 * @param language which fixture
 * @returns a fresh temporary workspace holding it (real path)
 */
export function createNavigationWorkspace(language: 'ts' | 'py'): NavigationWorkspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `lsp-nav-${language}-`)));
  const put = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const [path, text] of Object.entries(language === 'ts' ? TS_FILES : PY_FILES)) put(path, text);
  return { root, put };
}
