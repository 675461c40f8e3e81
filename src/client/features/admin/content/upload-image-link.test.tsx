import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContentImageInfo } from '@shared/content-studio';
import { errorReply, renderRoutes, resetAfterTest, stubApi } from '@client/test/render';
import { UploadImageLink, type Notice } from './upload-image-link';

const CHART: ContentImageInfo = { name: 'chart.png', url: '/content-images/chart.png', width: 640, height: 480, bytes: 2048 };

/** The link as a page holds it: the notice said under it, and what each upload gave. */
function Holder({ uploaded }: { uploaded: ContentImageInfo[] }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <>
      <UploadImageLink
        onNotice={setNotice}
        onUploaded={(image) => {
          uploaded.push(image);
          return `${image.name} is in.`;
        }}
      />
      {notice ? <p role={notice.ok ? 'status' : 'alert'}>{notice.text}</p> : null}
    </>
  );
}

const file = () => new File([new Uint8Array([137, 80, 78, 71])], 'chart.png', { type: 'image/png' });

afterEach(resetAfterTest);

describe('UploadImageLink', () => {
  it('sends the picked image, hands it to the page and says the page’s sentence; the same file picked again is sent again', async () => {
    const api = stubApi({ 'POST /api/admin/content/images': { body: CHART } });
    const uploaded: ContentImageInfo[] = [];
    renderRoutes([{ path: '/', element: <Holder uploaded={uploaded} /> }]);
    await userEvent.upload(screen.getByLabelText('Upload image'), file());
    expect(await screen.findByRole('status')).toHaveTextContent('chart.png is in.');
    expect(uploaded).toEqual([CHART]);
    await userEvent.upload(screen.getByLabelText('Upload image'), file());
    await expect.poll(() => uploaded.length).toBe(2);
    expect(api.callsTo('POST', '/api/admin/content/images').map((call) => call.search)).toEqual(['?name=chart.png', '?name=chart.png']);
  });

  it('says the server’s refusal, and gives the page nothing', async () => {
    stubApi({ 'POST /api/admin/content/images': errorReply(415, 'unsupported_image', 'The file is not the image its name says.') });
    const uploaded: ContentImageInfo[] = [];
    renderRoutes([{ path: '/', element: <Holder uploaded={uploaded} /> }]);
    await userEvent.upload(screen.getByLabelText('Upload image'), file());
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is not the image its name says.');
    expect(uploaded).toEqual([]);
  });
});
