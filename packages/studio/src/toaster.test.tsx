// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { TOAST_LIMIT } from '@reelsmith/contracts';
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import toast, { useToaster } from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installMatchMedia } from './testing/render-studio.js';
import { StudioToaster, TOAST_OPTIONS } from './toaster.js';

afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

describe('toaster configuration', () => {
  it('resolves each toast type to the spec duration', () => {
    installMatchMedia();
    const { result } = renderHook(() => useToaster(TOAST_OPTIONS));
    act(() => {
      toast('blank');
      toast.error('error');
      toast.success('success');
      toast.loading('loading');
      toast.custom('custom');
    });
    const durations = Object.fromEntries(result.current.toasts.map((t) => [t.type, t.duration]));
    expect(durations).toEqual({ blank: 4000, error: 4000, success: 2000, loading: Number.POSITIVE_INFINITY, custom: 3000 });
  });

  it('lets a call override the duration (the 2000 ms registration toast)', () => {
    const { result } = renderHook(() => useToaster(TOAST_OPTIONS));
    act(() => {
      toast.success('Account created successfully!', { duration: 2000 });
      toast('custom length', { duration: 1234 });
    });
    expect(result.current.toasts.map((t) => t.duration).sort()).toEqual([1234, 2000]);
  });

  it(`keeps at most ${TOAST_LIMIT} toasts`, () => {
    installMatchMedia();
    render(<StudioToaster />);
    const { result } = renderHook(() => useToaster(TOAST_OPTIONS));
    act(() => {
      for (let i = 0; i < TOAST_LIMIT + 5; i += 1) toast(`toast ${i}`);
    });
    expect(TOAST_LIMIT).toBe(20);
    expect(result.current.toasts).toHaveLength(TOAST_LIMIT);
    // The newest survive.
    expect(result.current.toasts[0]?.message).toBe(`toast ${TOAST_LIMIT + 4}`);
  });
});

describe('toast, fetched on the first toast', () => {
  it('renders nothing until a toast is asked for, then shows it, and its id dismisses it', async () => {
    installMatchMedia();
    vi.resetModules();
    // A fresh copy of the module: the library not yet loaded, as on a page's first load.
    const fresh = await import('./toaster.js');
    const { container } = render(<fresh.StudioToaster />);
    expect(container).toBeEmptyDOMElement();

    let id = '';
    act(() => {
      id = fresh.toast.error('Something went wrong');
    });
    expect(id).toMatch(/^rs-toast-/);
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();

    act(() => fresh.toast.remove(id));
    await waitFor(() => expect(screen.queryByText('Something went wrong')).toBeNull());
  });

  it('keeps the order of calls made while the library loads: a toast removed at once never stays', async () => {
    installMatchMedia();
    vi.resetModules();
    const fresh = await import('./toaster.js');
    render(<fresh.StudioToaster />);
    act(() => {
      const gone = fresh.toast.loading('Saving');
      fresh.toast.remove(gone);
      fresh.toast.success('Saved', { id: 'kept' });
    });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(screen.queryByText('Saving')).toBeNull();
  });

  it('still shows the message when the library cannot be fetched (offline before the first toast)', async () => {
    vi.resetModules();
    vi.doMock('react-hot-toast', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const fresh = await import('./toaster.js');
      render(<fresh.StudioToaster />);
      let id = '';
      act(() => {
        id = fresh.toast.error('You are offline. Check your connection and try again.');
      });
      expect(await screen.findByRole('alert')).toHaveTextContent('You are offline. Check your connection and try again.');
      act(() => fresh.toast.dismiss(id));
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      vi.doUnmock('react-hot-toast');
      warn.mockRestore();
    }
  });
});
