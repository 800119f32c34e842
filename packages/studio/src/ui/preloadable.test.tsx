// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { preloadable } from './preloadable.js';

afterEach(cleanup);

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Counts its mounts and keeps a click count, to see whether a re-render remounted it. */
function Counter({ label }: { label: string }) {
  const [clicks, setClicks] = useState(0);
  return (
    <button type="button" onClick={() => setClicks((n) => n + 1)}>
      {label} {clicks}
    </button>
  );
}

describe('preloadable', () => {
  it('renders a preloaded component at once, without the fallback', async () => {
    const { Component, preload } = preloadable(() => Promise.resolve(Counter));
    await preload();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Component label="ready" />
      </Suspense>,
    );
    expect(screen.getByRole('button')).toHaveTextContent('ready 0');
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('shows the fallback until the code arrives, and later renders keep the same instance', async () => {
    const code = deferred<typeof Counter>();
    const { Component } = preloadable(() => code.promise);
    const view = render(
      <Suspense fallback={<p>loading</p>}>
        <Component label="late" />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeInTheDocument();
    await act(async () => code.resolve(Counter));
    act(() => screen.getByRole('button').click());
    expect(screen.getByRole('button')).toHaveTextContent('late 1');
    view.rerender(
      <Suspense fallback={<p>loading</p>}>
        <Component label="late" />
      </Suspense>,
    );
    expect(screen.getByRole('button')).toHaveTextContent('late 1');
  });

  it('shares one request between preloads and renders, and retries after a failure', async () => {
    let calls = 0;
    const attempts = [deferred<typeof Counter>(), deferred<typeof Counter>()];
    const { preload } = preloadable(() => attempts[calls++]!.promise);
    const first = preload();
    expect(preload()).toBe(first);
    attempts[0]!.reject(new Error('offline'));
    await expect(first).rejects.toThrow('offline');
    const second = preload();
    attempts[1]!.resolve(Counter);
    await expect(second).resolves.toEqual({ default: Counter });
    expect(calls).toBe(2);
  });
});
