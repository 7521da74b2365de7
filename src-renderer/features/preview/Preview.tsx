import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ObjectDetails } from '../../../src-shared/model/storage';
import { previewUrl } from '../../api/object-url';
import { formatBytes } from '../../app/format';
import { strings } from '../../app/strings';
import { queryKeys } from '../../queries/keys';
import { useQuickLook } from '../../stores/quick-look';
import { ErrorState, Loading } from '../common/States';
import { planPreview, type PreviewKind } from './preview-kind';
import { readTextSample } from './text-sample';
import './preview.css';

const s = strings.preview;

const baseName = (name: string) => name.slice(name.lastIndexOf('/') + 1);

/**
 * An object's preview: images, PDFs (Chromium's viewer), audio and video (streamed in byte
 * ranges), text and JSON (the first 256 KiB); anything else, too large or empty says so.
 * `large` is the Space preview; the details panel's offers to open it.
 */
export function Preview({ account, container, details, large = false }: { account: string; container: string; details: ObjectDetails; large?: boolean }) {
  const plan = planPreview(details.name, details.contentType, details.size);
  const url = previewUrl(account, container, details.name);
  const show = useQuickLook((q) => q.show);
  return (
    <section className={large ? 'preview preview-large' : 'preview'} aria-label={s.region}>
      {plan.kind === 'none' ? (
        <p className="preview-note">{plan.why === 'empty' ? s.empty : plan.why === 'tooLarge' ? s.tooLarge(formatBytes(details.size)) : s.binary(plan.type)}</p>
      ) : (
        <Shown key={`${url}\n${details.etag}`} kind={plan.kind} url={url} account={account} container={container} details={details} />
      )}
      {large ? null : (
        <button type="button" className="button preview-larger" onClick={show} title={strings.actionBar.withKeys(s.larger, s.largerKeys)}>
          {s.larger}
        </button>
      )}
    </section>
  );
}

function Shown({ kind, url, account, container, details }: { kind: PreviewKind; url: string; account: string; container: string; details: ObjectDetails }) {
  const [failed, setFailed] = useState(false);
  const name = baseName(details.name);
  const fail = () => setFailed(true);
  if (failed) return <p className="preview-note">{s.failed}</p>;
  switch (kind) {
    case 'image':
      // An <img>: an SVG drawn this way runs no script, whatever it holds.
      return <img className="preview-media" src={url} alt={s.imageAlt(name)} onError={fail} />;
    case 'pdf':
      return <iframe className="preview-frame" src={url} title={s.pdfTitle(name)} />;
    case 'audio':
      return <audio className="preview-media" src={url} controls preload="metadata" aria-label={s.audioLabel(name)} onError={fail} />;
    case 'video':
      return <video className="preview-media" src={url} controls preload="metadata" aria-label={s.videoLabel(name)} onError={fail} />;
    default:
      return <TextPreview url={url} account={account} container={container} details={details} json={kind === 'json'} />;
  }
}

function TextPreview({ url, account, container, details, json }: { url: string; account: string; container: string; details: ObjectDetails; json: boolean }) {
  const sample = useQuery({
    queryKey: queryKeys.previewText(account, container, details.name, details.etag),
    queryFn: ({ signal }) => readTextSample(url, details.size, details.contentType, signal),
    staleTime: Infinity,
  });
  if (sample.isPending) return <Loading label={s.loading} />;
  if (sample.isError) return <ErrorState error={sample.error} onRetry={() => void sample.refetch()} />;
  const t = sample.data;
  if (t.binary) return <p className="preview-note">{s.looksBinary}</p>;
  let text = t.text;
  let note: string | null = null;
  if (json && t.truncated) note = s.jsonCut;
  else if (json) {
    try {
      text = JSON.stringify(JSON.parse(t.text), null, 2);
    } catch {
      note = s.notJson;
    }
  }
  return (
    <>
      <pre className="preview-text" tabIndex={0} aria-label={s.textLabel(baseName(details.name))}>
        {text}
      </pre>
      <p className="preview-caption">
        {s.encoding(t.encoding)}
        {t.truncated ? ` · ${s.firstBytes(formatBytes(t.shownBytes), formatBytes(details.size))}` : null}
        {note ? ` · ${note}` : null}
      </p>
    </>
  );
}
