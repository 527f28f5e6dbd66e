#!/bin/sh
# A stand-in for the VS Code executable: @vscode/test-electron (runTests with vscodeExecutablePath)
# and @vscode/test-cli (useInstallation.fromPath) launch it unchanged, and runShim.ts maps their
# arguments onto the VS Code server + Chromium runner, since desktop VS Code cannot be downloaded here.
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT" || exit 1
exec node --import tsx test/editor/runShim.ts "$@"
