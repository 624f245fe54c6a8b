/**
 * A fake `Io` for running CLI commands in-process: stdout and stderr are captured chunk by chunk,
 * stdin is a fixed string (what a pipe would deliver), and the terminal is not a TTY unless asked.
 */
import type { Io } from '../../src/cli/io.ts';

export interface CaptureOptions {
  /** What `readStdin` returns; default ''. */
  stdin?: string;
  /** Default false (a pipe). */
  isTTY?: boolean;
}

export interface Captured extends Io {
  /** Every chunk written to stdout, in order. */
  readonly out: string[];
  /** Every chunk written to stderr, in order. */
  readonly err: string[];
  /** stdout so far, joined. */
  readonly stdoutText: string;
  /** stderr so far, joined. */
  readonly stderrText: string;
}

/** An `Io` that records what a command writes: `const io = capture(); await main(argv, io); io.stdoutText`. */
export function capture(o: CaptureOptions = {}): Captured {
  const out: string[] = [];
  const err: string[] = [];
  const stdin = o.stdin ?? '';
  return {
    out,
    err,
    get stdoutText() {
      return out.join('');
    },
    get stderrText() {
      return err.join('');
    },
    stdout: (s) => void out.push(s),
    stderr: (s) => void err.push(s),
    readStdin: async () => stdin,
    isTTY: o.isTTY ?? false,
  };
}
