import { CAPTION_TEMPLATE_ANIMATES, captionTemplate, type CaptionDelivery, type CaptionStyle } from '@reelsmith/contracts';
import type { CSSProperties } from 'react';
import { CAPTION_CHOICES } from './caption-style-labels.js';
import './caption-style-picker.css';

/** Sample words every preview plays, the middle one a number (the keyword template colours it). */
const SAMPLE = ['Seven', 'brave', '3'];

/**
 * A looping preview drawn with CSS: the same colours, weight, case and outline as the burnt-in
 * caption, and each template's per-word effect on a 0.6 s beat per word (pop, bounce, sweep, box,
 * one word, typewriter, keywords, glow), so what the creator picks is what the render draws.
 */
export function CaptionPreview({ style, accentColor }: { style: CaptionStyle; accentColor?: string | undefined }) {
  const accent = accentColor ?? captionTemplate(style)?.defaultAccent ?? '#FFE600';
  return (
    <span className={`rs-capview rs-capview--${style}`} style={{ '--rs-cap-accent': accent } as CSSProperties} aria-hidden="true">
      <span className="rs-capview__line">
        {SAMPLE.map((word, index) => (
          <span
            key={word}
            className={`rs-capview__word${index === 2 ? ' rs-capview__word--key' : ''}`}
            style={{ animationDelay: `${index * 0.6}s` }}
          >
            {word}
          </span>
        ))}
      </span>
    </span>
  );
}

interface PickerProps {
  /** Names the radio group (and labels it through the element with this id). */
  id: string;
  labelId?: string;
  value: CaptionStyle;
  onChange: (style: CaptionStyle) => void;
  accentColor?: string | undefined;
  disabled?: boolean;
  /**
   * What each template animates, shown as its tooltip: CAPTION_TEMPLATE_ANIMATES unless given. The
   * picker loads when captions first show, so the text is not part of any first load.
   */
  descriptions?: Partial<Record<CaptionStyle, string>>;
}

/** The caption style as a row of live previews (radio buttons): the five styles, then the templates. */
export function CaptionStylePicker({
  id,
  labelId,
  value,
  onChange,
  accentColor,
  disabled,
  descriptions = CAPTION_TEMPLATE_ANIMATES,
}: PickerProps) {
  return (
    <div className="rs-capick" role="radiogroup" id={id} aria-labelledby={labelId}>
      {CAPTION_CHOICES.map((choice) => (
        <label
          key={choice.value}
          className={`rs-capick__item${choice.value === value ? ' rs-capick__item--on' : ''}`}
          title={descriptions?.[choice.value]}
        >
          <input
            type="radio"
            name={id}
            value={choice.value}
            checked={choice.value === value}
            disabled={disabled}
            onChange={() => onChange(choice.value)}
            data-testid={`caption-style-${choice.value}`}
          />
          <CaptionPreview style={choice.value} accentColor={choice.template ? accentColor : undefined} />
          <span className="rs-capick__name">{choice.name}</span>
        </label>
      ))}
    </div>
  );
}

/**
 * Where the captions go: drawn into the video, or as caption files beside a video without them.
 * Here, with the picker, so both load only once captions are switched on.
 */
export function CaptionDeliveryField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: CaptionDelivery;
  onChange(value: CaptionDelivery): void;
}) {
  return (
    <div className="rs-field">
      <label htmlFor={id} className="rs-field__label">
        Captions Go
      </label>
      <select id={id} className="rs-field__input rs-select" value={value} onChange={(e) => onChange(e.target.value as CaptionDelivery)}>
        <option value="burned">Into the video</option>
        <option value="file">As SRT and VTT files (video without captions)</option>
      </select>
    </div>
  );
}
