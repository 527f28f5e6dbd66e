// The terminal neutraliser's rules, one attack each: what a terminal would obey is gone, the text around
// it stays readable, and a JSON line keeps its data exactly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { neutralizeProgramOutput, neutralizeTerminalText, terminalSafeJson, terminalTextStream, terminalWriter } from '../../../src/platform/terminalText';

const ESC = '\u001b';

describe('neutralizeTerminalText', () => {
  const cases: [string, string, string][] = [
    ['OSC 52 clipboard write (BEL)', `a${ESC}]52;c;cm0gLXJmIH4=\u0007b`, 'ab'],
    ['OSC 52 clipboard write (ST)', `a${ESC}]52;c;cm0gLXJmIH4=${ESC}\\b`, 'ab'],
    ['window title', `a${ESC}]0;pwned\u0007b`, 'ab'],
    ['cursor up and erase line (CSI)', `x${ESC}[2A${ESC}[2Ky`, 'xy'],
    ['colour', `${ESC}[1;31mred${ESC}[0m`, 'red'],
    ['8-bit CSI', 'a\u009b2Jb', 'ab'],
    ['8-bit OSC', 'a\u009d52;c;eA==\u009cb', 'ab'],
    ['DCS', `a${ESC}Pq#0;2;0;0;0${ESC}\\b`, 'ab'],
    ['full reset (ESC c)', `a${ESC}cb`, 'ab'],
    ['carriage return overwriting a line', 'safe\rEVIL', 'safeEVIL'],
    ['backspace and bell', 'a\u0008\u0007b', 'ab'],
  ];
  for (const [what, input, expected] of cases) {
    it(`removes ${what}`, () => assert.equal(neutralizeTerminalText(input), expected));
  }

  it('shows bidi overrides (Trojan Source) escaped instead of obeying or hiding them', () => {
    assert.equal(neutralizeTerminalText('a\u202eb\u2066c\u2069'), 'a\\u202eb\\u2066c\\u2069');
  });

  it('keeps newlines, tabs and ordinary Unicode', () => {
    assert.equal(neutralizeTerminalText('a\tb\nc – ü ✓ 日本'), 'a\tb\nc – ü ✓ 日本');
  });

  it('an unterminated OSC loses only its introducer, not the text after it', () => {
    assert.equal(neutralizeTerminalText(`name${ESC}] which did not start`), 'name which did not start');
  });

  it('a sequence split across two writes leaves no escape character in either', () => {
    const parts = [`red ${ESC}[3`, '1m text'].map(neutralizeTerminalText);
    assert.ok(parts.every((p) => !p.includes(ESC)), JSON.stringify(parts));
  });
});

describe('terminalSafeJson', () => {
  it('escapes what JSON.stringify leaves raw, and parses back to the same value', () => {
    const value = { text: `a${ESC}]52;c;x\u0007 \u009b2J \u202e \u2028 \u007f ok` };
    const line = terminalSafeJson(value);
    assert.equal(neutralizeTerminalText(line), line, 'nothing left for a terminal to obey');
    assert.deepEqual(JSON.parse(line), value);
  });
});

describe('terminalWriter', () => {
  it('neutralises every write, and wrapping twice changes nothing', () => {
    let text = '';
    const writer = terminalWriter(terminalWriter({ write: (chunk: string) => (text += chunk) }));
    writer.write(`one${ESC}[2J\n`);
    writer.write(`two${ESC}]52;c;eA==\u0007\n`);
    assert.equal(text, 'one\ntwo\n');
  });
});

describe('neutralizeProgramOutput', () => {
  it('neutralises the strings inside a JSON answer (what its reader decodes), keeping its shape and newline', () => {
    const answer = `${JSON.stringify({ decision: 'block', reason: `no${ESC}]52;c;eA==\u0007 \u009b2Jway`, list: [`a${ESC}[31mb`, 3] })}\n`;
    const out = neutralizeProgramOutput(answer);
    assert.ok(out.endsWith('}\n'));
    assert.deepEqual(JSON.parse(out), { decision: 'block', reason: 'no way', list: ['ab', 3] });
  });

  it('neutralises other text as text, JSON-looking or not', () => {
    assert.equal(neutralizeProgramOutput(`{not json${ESC}[2J\n`), '{not json\n');
    assert.equal(neutralizeProgramOutput(`plain ${ESC}]0;title\u0007text\n`), 'plain text\n');
  });
});

describe('terminalTextStream', () => {
  // A terminal's output arrives in chunks that cut anywhere, the shell integration's own sequences
  // (OSC 633) and colours included: every split of each case gives the text without its sequences.
  const cases: [string, string, string][] = [
    ['shell integration marker and colour, as VS Code read() gives them', `${ESC}]633;C\u0007hello\r\n${ESC}[31mred${ESC}[0m\r\n`, 'hello\nred\n'],
    ['OSC 52 ended by ST', `a${ESC}]52;c;cm0gLXJmIH4=${ESC}\\b`, 'ab'],
    ['CSI with parameters', `x${ESC}[38;5;196my`, 'xy'],
    ['8-bit OSC', 'a\u009d0;title\u009cb', 'ab'],
  ];
  for (const [what, input, expected] of cases) {
    it(`removes ${what}, split at every place`, () => {
      for (let at = 0; at <= input.length; at += 1) {
        const stream = terminalTextStream();
        const out = stream.push(input.slice(0, at)) + stream.push(input.slice(at)) + stream.end();
        assert.equal(out, expected, `split at ${at}`);
      }
    });
  }

  it('passes on a stray introducer followed by much text (nothing is held back for ever)', () => {
    const stream = terminalTextStream();
    const out = stream.push(`${ESC}]${'x'.repeat(5000)}`);
    assert.ok(out.endsWith('x'.repeat(4999)), 'the text after a stray OSC introducer came through');
    assert.equal(stream.end(), '');
  });

  it('ends with what it held, neutralised', () => {
    const stream = terminalTextStream();
    assert.equal(stream.push(`done${ESC}[1`), 'done');
    assert.equal(stream.end(), '1');
  });
});
