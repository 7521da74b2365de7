// English texts of previews: the details panel's and the larger one Space opens. One part of
// `en` in ../strings.ts.
export const previewTexts = {
  preview: {
    region: 'Preview',
    loading: 'Loading the preview…',
    imageAlt: (name: string) => `Image ${name}`,
    pdfTitle: (name: string) => `PDF document ${name}`,
    audioLabel: (name: string) => `Audio ${name}`,
    videoLabel: (name: string) => `Video ${name}`,
    textLabel: (name: string) => `Text of ${name}`,
    encoding: (name: string) => `Encoding: ${name}`,
    firstBytes: (shown: string, total: string) => `The first ${shown} of ${total}`,
    notJson: 'Not valid JSON: shown as text.',
    jsonCut: 'Too long to format as JSON: the first part as text.',
    empty: 'This object is empty.',
    binary: (type: string) => `No preview: ${type} is not a kind of file the app shows.`,
    looksBinary: 'No preview: this object holds binary data, not text.',
    tooLarge: (size: string) => `No preview: at ${size} this object is too large to load. Download it to open it.`,
    failed: 'The preview could not be shown: the object may be damaged or in a format this window cannot show.',
    larger: 'Larger preview',
    largerKeys: 'Space',
    quickLookTitle: (name: string) => `Preview of ${name}`,
    quickLookHint: 'Arrow keys: previous and next object. Space or Escape: close.',
  },
};
