// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUILD_API_BASE_URL } from '../extension-host/api-origin.js';
import { OptionsApp } from './options-app.js';

beforeEach(() => {
  vi.stubGlobal('chrome', {
    storage: { local: { get: async () => ({}), set: async () => undefined, remove: async () => undefined } },
    permissions: { contains: async () => true, request: async () => true },
    runtime: { sendMessage: async () => ({ ok: true }) },
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function savedUnchanged() {
  const user = userEvent.setup();
  render(<OptionsApp />);
  const input = screen.getByRole('textbox', { name: 'Server address' });
  await screen.findByDisplayValue(BUILD_API_BASE_URL);
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Nothing changed.')).toBeInTheDocument();
  return { user, input };
}

describe('options page', () => {
  it('drops the last save’s status when the browser’s URL check blocks the next save', async () => {
    const { input } = await savedUnchanged();
    // What Chrome does for a required url field it will not submit: an invalid event, no submit.
    act(() => void fireEvent.invalid(input));
    expect(screen.queryByText('Nothing changed.')).not.toBeInTheDocument();
  });

  it('drops the status once the address is edited', async () => {
    const { user, input } = await savedUnchanged();
    await user.type(input, 'x');
    expect(screen.queryByText('Nothing changed.')).not.toBeInTheDocument();
  });
});
