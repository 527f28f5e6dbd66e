// Entry point of the reload suite (SPROUT_EDITOR_SUITE=reload): the same mocha runner as the main
// suite, over the test files bundled beside this one. The suite runs twice in one editor: its first
// run ends by reloading the window (Developer: Reload Window), which starts the extension host and
// this suite again, so the second run sees what survived the reload.
export { run } from '../suite/index';
