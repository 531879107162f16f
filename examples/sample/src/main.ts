// One known error: `distance` is used without an import. typescript-language-server offers
// the quick fix 'Add import from "./geometry.js"'.

/** The distance of a 3-4-5 triangle's hypotenuse. */
export function hypotenuse(): number {
  return distance({ x: 0, y: 0 }, { x: 3, y: 4 });
}

console.log(hypotenuse());
