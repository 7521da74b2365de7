// The address-bar form of a place: every name survives the round trip, whatever it holds.
import { describe, expect, it } from 'vitest';
import { HOME, hashOf, placeOf } from '../../src-renderer/app/url-location.js';

describe('places in the address bar', () => {
  it('reads and writes the container list, a container and a folder', () => {
    expect(hashOf(HOME)).toBe('#/local');
    expect(hashOf({ connectionId: 'local', container: 'archive', prefix: '' })).toBe('#/local/archive/');
    expect(hashOf({ connectionId: 'local', container: 'archive', prefix: 'docs/guide/' })).toBe('#/local/archive/docs/guide/');
    expect(placeOf('#/local/archive/docs/guide/')).toEqual({ connectionId: 'local', container: 'archive', prefix: 'docs/guide/' });
    expect(placeOf('#/local/archive')).toEqual({ connectionId: 'local', container: 'archive', prefix: '' });
    // A pasted folder link without its last slash is still that folder.
    expect(placeOf('#/local/archive/docs/guide')).toEqual({ connectionId: 'local', container: 'archive', prefix: 'docs/guide/' });
  });

  it('keeps names with spaces, #, %, ?, non-ASCII and empty segments intact', () => {
    const places = [
      { connectionId: 'c0nn-1d', container: 'my box', prefix: 'a #1/100% sure?/' },
      { connectionId: 'local', container: 'fotos', prefix: 'été/日本/' },
      { connectionId: 'local', container: 'odd', prefix: '/' },
      { connectionId: 'local', container: 'odd', prefix: 'a//b/' },
    ];
    for (const place of places) expect(placeOf(hashOf(place))).toEqual(place);
  });

  it('takes no fragment as home and refuses what is not a place', () => {
    for (const hash of ['', '#', '#/']) expect(placeOf(hash)).toEqual(HOME);
    expect(placeOf('#section')).toBeUndefined();
    expect(placeOf('#/local/%E0%A4%A/')).toBeUndefined();
  });
});
