// The lint rule behind the layer table in eslint.config.mjs. A layer is a folder directly under src/;
// an import is judged by the absolute path it resolves to, so `../../../model/x` from a file three
// folders deep is the model layer like `../model/x` is (a pattern on the written path cannot know
// that). It also rejects a file in a folder the table does not name (a new layer must say what it may
// import), a package outside a layer's allowlist where it has one, and every dynamic import(), which
// would let code reach anything at run time whatever the table says.
import { dirname, relative, resolve, sep } from 'node:path';

/** `@scope/name/deep` -> `@scope/name`, `name/deep` -> `name`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The literal module name of an import-like node, or undefined when it has none. */
function specifierOf(node) {
  const source = node.type === 'TSImportType' ? (node.argument?.literal ?? node.source) : node.source;
  return source?.type === 'Literal' && typeof source.value === 'string' ? source.value : undefined;
}

function createRule(root, layers) {
  const names = Object.keys(layers).join(', ');
  return {
    meta: {
      type: 'problem',
      docs: { description: 'imports follow the layer table of eslint.config.mjs, judged by resolved path' },
      schema: [],
    },
    create(context) {
      const path = relative(root, context.filename).split(sep);
      if (path[0] !== 'src') return {};
      const layer = path.length > 2 ? path[1] : undefined;
      const rules = layer === undefined ? undefined : layers[layer];
      if (rules === undefined) {
        return {
          Program(node) {
            const where = path.length > 2 ? `src/${layer}` : 'src/';
            context.report({ node, message: `${where} belongs to no layer: add it to the layer table in eslint.config.mjs (the layers are ${names}) with what it may import.` });
          },
        };
      }
      const allowed = `src/${layer} may import ${rules.imports.length > 0 ? rules.imports.join(', ') : 'only its own files'}`;

      function checkRelative(node, specifier) {
        const target = relative(root, resolve(dirname(context.filename), specifier)).split(sep);
        if (target[0] === 'src' && target[1] === layer) return;
        const name = target[0] === 'src' && target.length > 2 ? target[1] : target.join('/');
        if (rules.imports.includes(name)) return;
        const what = target[0] === 'src' && target.length > 2 ? `src/${name}` : name;
        context.report({ node, message: `src/${layer} may not import ${what} (${allowed}; see the layer table in eslint.config.mjs).` });
      }

      function check(node) {
        const specifier = specifierOf(node);
        if (specifier === undefined) return;
        if (specifier.startsWith('.')) return checkRelative(node, specifier);
        if (rules.packages === undefined || rules.packages.includes(packageName(specifier))) return;
        const list = rules.packages.length > 0 ? `only ${rules.packages.join(', ')}` : 'no package';
        context.report({ node, message: `src/${layer} may not import the package ${specifier}: it may import ${list} (the allowlist in eslint.config.mjs).` });
      }

      return {
        ImportDeclaration: check,
        ExportAllDeclaration: check,
        ExportNamedDeclaration: check,
        TSImportType: check,
        ImportExpression(node) {
          context.report({ node, message: `src/${layer}: no dynamic import(); it hides a dependency from the layer rules. Import statically (esbuild bundles each entry point).` });
        },
      };
    },
  };
}

/** An ESLint plugin with one rule, `layers/imports`, enforcing `layers` for the files under `root`/src. */
export function layerPlugin(root, layers) {
  return { rules: { imports: createRule(root, layers) } };
}
