// Entry point of the Restricted Mode suite (`SPROUT_EDITOR_TRUST=untrusted npm run test:editor`): the
// same mocha runner as test/editor/suite, bundled here so it runs the `*.test.js` files beside it.
export { run } from '../suite/index';
