import {
  BRAND_FONTS,
  brandKitSchema,
  END_CARD_MAX_SECONDS,
  END_CARD_MIN_SECONDS,
  LOGO_OPACITY_RANGE,
  LOGO_POSITIONS,
  LOGO_SCALE_RANGE,
  readableTextOn,
  type BrandKit,
  type LogoPosition,
} from '@reelsmith/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type CSSProperties, type FormEvent } from 'react';
import { toast } from '../toaster.js';
import { errorMessage } from '../api/api-client.js';
import { useApi, useAuth } from '../services.js';
import { uploadFile } from '../shared/upload-file.js';
import { CaptionPreview } from '../ui/caption-style-picker.js';
import { FileButton } from '../ui/file-button.js';
import { SelectField } from '../ui/select-field.js';
import './brand-tab.css';

const brandQueryKey = ['brand'] as const;

/** What the logo upload takes (`POST /api/uploads?purpose=logo`): SVG is drawn to a transparent PNG by the server. */
const LOGO_TYPES = 'image/png,image/jpeg,image/webp,image/svg+xml,.svg';
export const LOGO_LABEL = 'Logo (PNG, JPEG, WebP or SVG)';

const POSITION_LABELS: Record<LogoPosition, string> = {
  'top-left': 'Top left',
  'top-right': 'Top right',
  'bottom-left': 'Bottom left',
  'bottom-right': 'Bottom right',
};

/**
 * Settings → Brand: the logo (corner, size, opacity), caption font, accent colour for the templates'
 * highlight and an end card, applied to every new video and re-render while switched on.
 */
export function BrandTab() {
  const api = useApi();
  const token = useAuth((s) => s.token);
  const queryClient = useQueryClient();
  const ids = useId();
  const id = (field: string) => `${ids}-${field}`;
  const brand = useQuery({ queryKey: brandQueryKey, queryFn: () => api.call('brand') });
  const [draft, setDraft] = useState<BrandKit | null>(null);
  const [logoPreview, setLogoPreview] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (brand.data && !draft) setDraft(brand.data);
  }, [brand.data, draft]);
  useEffect(() => () => void (logoPreview && URL.revokeObjectURL(logoPreview)), [logoPreview]);
  const save = useMutation({
    mutationFn: (body: BrandKit) => api.call('updateBrand', { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(brandQueryKey, saved);
      toast.success('Brand saved');
    },
    onError: (e) => setError(errorMessage(e, 'Saving the brand failed')),
  });
  if (!draft) return <p className="rs-brand__hint">{brand.isError ? errorMessage(brand.error, 'Loading the brand failed') : 'Loading…'}</p>;
  const set = <K extends keyof BrandKit>(key: K, value: BrandKit[K]) => setDraft({ ...draft, [key]: value });

  const chooseLogo = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setError(null);
    try {
      const uploaded = await uploadFile(api, token, file, undefined, 'logo');
      setDraft((current) => (current ? { ...current, logoUploadId: uploaded.id } : current));
      setLogoPreview(URL.createObjectURL(file));
    } catch (e) {
      setError(errorMessage(e, 'Uploading the logo failed'));
    } finally {
      setUploading(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = brandKitSchema.safeParse(draft);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'The brand is not valid.');
      return;
    }
    setError(null);
    save.mutate(parsed.data);
  };

  // In 9:16 the shorter side is the width, so the scale is the logo's share of the preview's width.
  const logoStyle: CSSProperties = { width: `${draft.logoScale * 100}%`, opacity: draft.logoOpacity };
  const logo = draft.logoUploadId ? (
    <span className={`rs-brand__logo rs-brand__logo--${draft.logoPosition}`} style={logoStyle}>
      {logoPreview ? <img src={logoPreview} alt="" /> : <span className="rs-brand__logo-box">LOGO</span>}
    </span>
  ) : null;
  return (
    <form className="rs-card rs-brand" onSubmit={submit} noValidate aria-label="Brand kit">
      <div className="rs-brand__fields">
        <label className="rs-brand__check">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.target.checked)} />
          <span>Apply my brand to new videos and re-renders</span>
        </label>

        <div className="rs-field" role="group" aria-labelledby={id('logo-label')}>
          <span className="rs-field__label" id={id('logo-label')}>
            Logo
          </span>
          <div className="rs-brand__logo-row">
            <span className="rs-brand__logo-thumb" aria-hidden="true">
              {logoPreview ? <img src={logoPreview} alt="" /> : draft.logoUploadId ? <span>Logo</span> : <span>None</span>}
            </span>
            <FileButton
              label={draft.logoUploadId ? 'Replace logo' : 'Upload logo'}
              accept={LOGO_TYPES}
              busy={uploading}
              ariaLabel={LOGO_LABEL}
              onFile={(file) => void chooseLogo(file)}
            />
            {draft.logoUploadId ? (
              <button
                type="button"
                className="rs-button rs-button--ghost rs-button--small"
                disabled={uploading}
                onClick={() => {
                  set('logoUploadId', null);
                  setLogoPreview(null);
                }}
              >
                Remove logo
              </button>
            ) : null}
          </div>
          <p className="rs-brand__hint" role="status">
            {uploading ? 'Uploading…' : draft.logoUploadId ? 'A logo is set.' : 'No logo.'} PNG, JPEG, WebP or SVG (up to 512 KB); a
            transparent PNG, WebP or SVG keeps its transparency.
          </p>
        </div>
        <SelectField
          id={id('position')}
          label="Logo position"
          value={draft.logoPosition}
          options={LOGO_POSITIONS.map((position) => ({ value: position, label: POSITION_LABELS[position] }))}
          onChange={(position) => set('logoPosition', position as LogoPosition)}
        />
        <RangeField
          id={id('scale')}
          label={`Logo size: ${Math.round(draft.logoScale * 100)}% of the width`}
          range={LOGO_SCALE_RANGE}
          step={0.01}
          value={draft.logoScale}
          onChange={(scale) => set('logoScale', scale)}
        />
        <RangeField
          id={id('opacity')}
          label={`Logo opacity: ${Math.round(draft.logoOpacity * 100)}%`}
          range={LOGO_OPACITY_RANGE}
          step={0.05}
          value={draft.logoOpacity}
          onChange={(opacity) => set('logoOpacity', opacity)}
        />
        <div className="rs-field">
          <label className="rs-field__label" htmlFor={id('accent')}>
            Accent colour (caption template highlights)
          </label>
          <input
            id={id('accent')}
            type="color"
            className="rs-brand__colour"
            value={draft.accentColor.toLowerCase()}
            onChange={(e) => set('accentColor', e.target.value.toUpperCase())}
          />
        </div>
        <div className="rs-field">
          <label className="rs-field__label" htmlFor={id('font')}>
            Caption font
          </label>
          <select
            id={id('font')}
            className="rs-field__input rs-select"
            value={draft.fontId}
            onChange={(e) => set('fontId', e.target.value as BrandKit['fontId'])}
          >
            {BRAND_FONTS.map((font) => (
              <option key={font.id} value={font.id}>
                {font.name} ({font.scripts})
              </option>
            ))}
          </select>
        </div>
        <label className="rs-brand__check">
          <input
            type="checkbox"
            checked={draft.endCard !== null}
            onChange={(e) => set('endCard', e.target.checked ? { text: '', seconds: 2 } : null)}
          />
          <span>End card</span>
        </label>
        {draft.endCard ? (
          <div className="rs-brand__row">
            <div className="rs-field">
              <label className="rs-field__label" htmlFor={id('card-text')}>
                End card text
              </label>
              <input
                id={id('card-text')}
                className="rs-field__input"
                maxLength={60}
                placeholder="@yourhandle or Follow for more"
                value={draft.endCard.text}
                onChange={(e) => set('endCard', { ...draft.endCard!, text: e.target.value })}
              />
            </div>
            <div className="rs-field">
              <label className="rs-field__label" htmlFor={id('card-seconds')}>
                Seconds
              </label>
              <input
                id={id('card-seconds')}
                type="number"
                className="rs-field__input"
                min={END_CARD_MIN_SECONDS}
                max={END_CARD_MAX_SECONDS}
                step={0.5}
                value={draft.endCard.seconds}
                onChange={(e) => set('endCard', { ...draft.endCard!, seconds: Number(e.target.value) })}
              />
            </div>
          </div>
        ) : null}
        {error ? (
          <p className="rs-field__error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="rs-button rs-button--primary" disabled={save.isPending || uploading}>
          {save.isPending ? 'Saving…' : 'Save brand'}
        </button>
      </div>

      {/* Beside the fields and in view while they scroll: every change shows at once. */}
      <aside className={`rs-brand__preview${draft.enabled ? '' : ' rs-brand__preview--off'}`} aria-label="Preview">
        <figure className="rs-brand__shot">
          <div className="rs-brand__frame" aria-label="Brand preview" role="img">
            <span className="rs-brand__scene" aria-hidden="true" />
            {logo}
            <span className="rs-brand__captions">
              <CaptionPreview style="word-pop" accentColor={draft.accentColor} />
            </span>
          </div>
          <figcaption>During the video</figcaption>
        </figure>
        {draft.endCard ? (
          <figure className="rs-brand__shot">
            <div className="rs-brand__frame" aria-label="End card preview" role="img">
              <span className="rs-brand__scene rs-brand__scene--last" aria-hidden="true" />
              {logo}
              <span className="rs-brand__card" style={{ background: draft.accentColor, color: readableTextOn(draft.accentColor) }}>
                {draft.endCard.text || 'Your end card'}
              </span>
            </div>
            {/* As the video draws it: a closing card of its own after the narration, over the last picture dimmed, no captions. */}
            <figcaption>After the last word, {draft.endCard.seconds} s</figcaption>
          </figure>
        ) : null}
        {draft.enabled ? null : <p className="rs-brand__hint">Off: new videos are made without the brand.</p>}
      </aside>
    </form>
  );
}

/** A slider between the range's ends, labelled with its current value. */
function RangeField({
  id,
  label,
  range,
  step,
  value,
  onChange,
}: {
  id: string;
  label: string;
  range: { min: number; max: number };
  step: number;
  value: number;
  onChange(value: number): void;
}) {
  return (
    <div className="rs-field">
      <label className="rs-field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type="range"
        min={range.min}
        max={range.max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </div>
  );
}
