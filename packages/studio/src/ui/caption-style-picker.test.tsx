// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { CAPTION_STYLE_VALUES, CAPTION_TEMPLATES, type CaptionStyle } from '@reelsmith/contracts';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { captionStyleName } from './caption-style-labels.js';
import { CaptionStylePicker } from './caption-style-picker.js';

afterEach(cleanup);

function Harness({ accent }: { accent?: string }) {
  const [style, setStyle] = useState<CaptionStyle>('tiktok');
  return (
    <>
      <span id="label">Caption Style</span>
      <CaptionStylePicker id="styles" labelId="label" value={style} onChange={setStyle} accentColor={accent} />
      <output>{style}</output>
    </>
  );
}

describe('CaptionStylePicker', () => {
  it('offers every style and template by name, each with its live preview, and picks one', async () => {
    const user = userEvent.setup();
    const { container } = render(<Harness />);
    const group = screen.getByRole('radiogroup', { name: 'Caption Style' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((radio) => (radio as HTMLInputElement).value)).toEqual([...CAPTION_STYLE_VALUES]);
    expect(within(group).getByRole('radio', { name: 'TikTok' })).toBeChecked();
    for (const template of CAPTION_TEMPLATES) {
      expect(within(group).getByRole('radio', { name: template.name })).toBeInTheDocument();
      expect(container.querySelector(`.rs-capview--${template.id} .rs-capview__word`)).not.toBeNull();
    }
    await user.click(within(group).getByText('Box Highlight'));
    expect(within(group).getByRole('radio', { name: 'Box Highlight' })).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('box-highlight');
    expect(captionStyleName('neon-glow')).toBe('Neon Glow');
  });

  it("previews the templates in the brand's accent and leaves the spec styles their own colours", () => {
    const { container } = render(<Harness accent="#12AB34" />);
    const accent = (style: string) =>
      (container.querySelector(`.rs-capview--${style}`) as HTMLElement).style.getPropertyValue('--rs-cap-accent');
    expect(accent('karaoke')).toBe('#12AB34');
    expect(accent('word-pop')).toBe('#12AB34');
    expect(accent('tiktok')).toBe('#FFE600');
  });
});
