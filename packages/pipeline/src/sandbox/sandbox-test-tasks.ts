// Tasks the sandbox pool's tests run in a worker: one that answers, one that never ends, one that
// grows the heap without bound, one that overflows the stack.

export function echo(value: string): string {
  return `echo ${value}`;
}

export function spin(): number {
  let count = 0;
  for (;;) {
    count += 1;
    // Never true: the loop runs until the pool ends the worker.
    if (count < 0) return count;
  }
}

export function hog(): number {
  const kept: string[][] = [];
  for (;;) kept.push(Array.from({ length: 100_000 }, (_, index) => `item ${index} ${kept.length}`));
}

export function wait(ms: number): Promise<string> {
  return new Promise((resolve) => setTimeout(() => resolve('waited'), ms));
}
