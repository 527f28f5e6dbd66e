// Launches the headless Debian Chromium (from apt, not a Playwright download, which these machines
// cannot fetch) with the flags that keep it quiet and working as root in a container.
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from '../../../scripts/ensureCodeServer';

/** `extraArgs`: more Chromium switches (a proxy standing for a remote browser's network). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}
