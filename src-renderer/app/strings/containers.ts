// English texts of making a container public and of container names S3 tools cannot reach: one
// part of the `en` object in ../strings.ts (see there).
export const containerTexts = {
  publish: {
    title: (name: string) => `Make ${name} public?`,
    body: (name: string) => `Anyone who has the address will be able to list and read every object in “${name}”, without credentials, until it is made private again.`,
    submit: 'Make public',
    busy: 'Making public…',
    doneTitle: (name: string) => `${name} is public`,
    doneBody: 'Anyone can list and read its objects at this address (an object’s name goes at the end):',
    urlLabel: 'Public URL',
    show: (name: string) => `Public URL of ${name}`,
    showShort: 'Public URL',
    failed: (message: string) => `Could not make it public: ${message}`,
    urlFailed: (message: string) => `It is public, but its address could not be found: ${message}`,
  },

  containerName: {
    /** The name breaks S3's bucket rules: the native API takes it, S3 tools will not reach it. */
    s3Warning: (rule: string) => `S3 tools will not reach a container with this name (${rule}); only the native (Swift) API will. Use it anyway, or choose a name S3 accepts.`,
  },

  containerQuota: {
    set: 'Set quota…',
  },
};
