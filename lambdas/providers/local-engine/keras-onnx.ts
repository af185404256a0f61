// A Keras layers model, as TensorFlow.js ships one (model.json's topology and its float32 weights), written as the
// same network in ONNX, in memory, so that onnxruntime-node runs it natively. Only the layer types esrgan-slim is
// built from are known (Conv2D, ReLU, Concatenate, Add, nearest UpSampling2D, all channels-last); any other layer or
// setting is refused, never approximated. The ONNX model is NCHW float32 with a free height and width; its protobuf
// is written by hand (the few messages of onnx.proto it needs), so no converter or protobuf package is involved.

/** Keras weights by name: shape and values (kernels are [height, width, in, out]). */
export type KerasWeights = ReadonlyMap<string, { shape: readonly number[]; values: Float32Array }>;

interface KerasLayer {
  class_name: string;
  config: Record<string, unknown> & { name: string };
  inbound_nodes: [string, number, number, unknown][][];
}

export interface KerasTopology {
  model_config: { config: { layers: KerasLayer[]; input_layers: [string, number, number][]; output_layers: [string, number, number][] } };
}

/** The tfjs weights manifest's entries, in the order of the weight file. */
export interface KerasWeightSpec {
  name: string;
  shape: number[];
  dtype: string;
}

/** The weights of a tfjs weight file, by name. */
export function readKerasWeights(specs: readonly KerasWeightSpec[], data: Buffer): KerasWeights {
  const weights = new Map<string, { shape: number[]; values: Float32Array }>();
  let offset = 0;
  for (const spec of specs) {
    if (spec.dtype !== 'float32') throw new Error(`weight ${spec.name} is ${spec.dtype}, not float32`);
    const count = spec.shape.reduce((product, side) => product * side, 1);
    const values = new Float32Array(count);
    for (let i = 0; i < count; i++) values[i] = data.readFloatLE(offset + i * 4);
    weights.set(spec.name, { shape: spec.shape, values });
    offset += count * 4;
  }
  if (offset !== data.length) throw new Error(`the weight file has ${data.length} bytes, the manifest names ${offset}`);
  return weights;
}

/** Protobuf wire format: varints (wire type 0) and length-delimited fields (wire type 2) are all ONNX needs here. */
class ProtoWriter {
  private readonly parts: Buffer[] = [];

  private varint(value: number): this {
    const bytes: number[] = [];
    let rest = BigInt(value);
    do {
      let byte = Number(rest & 0x7fn);
      rest >>= 7n;
      if (rest) byte |= 0x80;
      bytes.push(byte);
    } while (rest);
    this.parts.push(Buffer.from(bytes));
    return this;
  }

  int(field: number, value: number): this {
    return this.varint(field << 3).varint(value);
  }

  bytes(field: number, value: Uint8Array): this {
    this.varint((field << 3) | 2).varint(value.length);
    this.parts.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  message(field: number, value: ProtoWriter): this {
    return this.bytes(field, value.toBuffer());
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

// Field numbers and enums of onnx.proto (ONNX IR version 8, operator set 13).
const IR_VERSION = 8;
const OPSET = 13;
const FLOAT = 1;
const ATTRIBUTE = { INT: 2, STRING: 3, INTS: 7 } as const;

const tensorProto = (name: string, dims: readonly number[], values: Float32Array) => {
  const tensor = new ProtoWriter();
  for (const side of dims) tensor.int(1, side);
  return tensor.int(2, FLOAT).string(8, name).bytes(9, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
};

type Attribute = ['int', string, number] | ['ints', string, readonly number[]] | ['string', string, string];

const attributeProto = ([kind, name, value]: Attribute) => {
  const attribute = new ProtoWriter().string(1, name);
  if (kind === 'int') return attribute.int(3, value).int(20, ATTRIBUTE.INT);
  if (kind === 'string') return attribute.string(4, value).int(20, ATTRIBUTE.STRING);
  for (const item of value) attribute.int(8, item);
  return attribute.int(20, ATTRIBUTE.INTS);
};

/** A float32 NCHW value of free height and width. */
const imageValue = (name: string, channels: number) => {
  const shape = new ProtoWriter()
    .message(1, new ProtoWriter().int(1, 1))
    .message(1, new ProtoWriter().int(1, channels))
    .message(1, new ProtoWriter().string(2, `${name}_height`))
    .message(1, new ProtoWriter().string(2, `${name}_width`));
  return new ProtoWriter().string(1, name).message(2, new ProtoWriter().message(1, new ProtoWriter().int(1, FLOAT).message(2, shape)));
};

function refuse(layer: KerasLayer, why: string): never {
  throw new Error(`cannot convert layer ${layer.config.name} (${layer.class_name}): ${why}`);
}

/** The Keras model as ONNX ModelProto bytes: input and output keep the Keras names, 3 channels each (RGB in, RGB out). */
export function kerasToOnnx(topology: KerasTopology, weights: KerasWeights): Uint8Array {
  const { layers, input_layers: inputs, output_layers: outputs } = topology.model_config.config;
  if (inputs.length !== 1 || outputs.length !== 1) throw new Error('only a model of one input and one output is converted');
  const graph = new ProtoWriter();
  const node = (op: string, layer: KerasLayer, inputNames: string[], attributes: Attribute[] = []) => {
    const proto = new ProtoWriter();
    for (const input of inputNames) proto.string(1, input);
    proto.string(2, layer.config.name).string(3, layer.config.name).string(4, op);
    for (const attribute of attributes) proto.message(5, attributeProto(attribute));
    graph.message(1, proto);
  };
  const weight = (layer: KerasLayer, part: string) => weights.get(`${layer.config.name}/${part}`) ?? refuse(layer, `no ${part} weights`);

  for (const layer of layers) {
    const { config } = layer;
    const from = (layer.inbound_nodes[0] ?? []).map(([name]) => name);
    if (config.data_format !== undefined && config.data_format !== 'channels_last') refuse(layer, `data format ${String(config.data_format)}`);
    switch (layer.class_name) {
      case 'InputLayer':
        break;
      case 'Conv2D': {
        const channelsLast = weight(layer, 'kernel');
        const [kh, kw, channelsIn, channelsOut] = channelsLast.shape as [number, number, number, number];
        const stride = config.strides as number[];
        const dilation = config.dilation_rate as number[];
        if (stride.some((step) => step !== 1) || dilation.some((step) => step !== 1)) refuse(layer, 'strides or dilation other than 1');
        if (config.activation !== 'linear' || config.use_bias !== true || (config.groups ?? 1) !== 1) refuse(layer, 'a fused activation, no bias or groups');
        if (config.padding !== 'same' && config.padding !== 'valid') refuse(layer, `padding ${String(config.padding)}`);
        const kernel = new Float32Array(channelsLast.values.length);
        for (let y = 0; y < kh; y++) {
          for (let x = 0; x < kw; x++) {
            for (let i = 0; i < channelsIn; i++) {
              for (let o = 0; o < channelsOut; o++) kernel[((o * channelsIn + i) * kh + y) * kw + x] = channelsLast.values[((y * kw + x) * channelsIn + i) * channelsOut + o]!;
            }
          }
        }
        graph.message(5, tensorProto(`${config.name}/W`, [channelsOut, channelsIn, kh, kw], kernel));
        graph.message(5, tensorProto(`${config.name}/B`, [channelsOut], weight(layer, 'bias').values));
        // Keras 'same' with stride 1 pads (k − 1) / 2 before and the rest after, as ONNX pads [top, left, bottom, right].
        const pads = config.padding === 'same' ? [(kh - 1) >> 1, (kw - 1) >> 1, kh >> 1, kw >> 1] : [0, 0, 0, 0];
        node('Conv', layer, [from[0]!, `${config.name}/W`, `${config.name}/B`], [
          ['ints', 'kernel_shape', [kh, kw]],
          ['ints', 'pads', pads],
        ]);
        break;
      }
      case 'Activation':
        if (config.activation !== 'relu') refuse(layer, `activation ${String(config.activation)}`);
        node('Relu', layer, from);
        break;
      case 'Concatenate':
        if (config.axis !== 3 && config.axis !== -1) refuse(layer, `axis ${String(config.axis)}`);
        node('Concat', layer, from, [['int', 'axis', 1]]);
        break;
      case 'Add':
        node('Add', layer, from);
        break;
      case 'UpSampling2D': {
        if (config.interpolation !== 'nearest') refuse(layer, `interpolation ${String(config.interpolation)}`);
        const [down, across] = config.size as [number, number];
        graph.message(5, tensorProto(`${config.name}/scales`, [4], new Float32Array([1, 1, down, across])));
        // Nearest with whole scales: output pixel (y, x) takes input (⌊y / s⌋, ⌊x / s⌋), as Keras does.
        node('Resize', layer, [from[0]!, '', `${config.name}/scales`], [
          ['string', 'mode', 'nearest'],
          ['string', 'coordinate_transformation_mode', 'asymmetric'],
          ['string', 'nearest_mode', 'floor'],
        ]);
        break;
      }
      default:
        refuse(layer, 'not a layer type this converter knows');
    }
  }
  graph.string(2, 'keras');
  graph.message(11, imageValue(inputs[0]![0], 3));
  graph.message(12, imageValue(outputs[0]![0], 3));
  return new ProtoWriter()
    .int(1, IR_VERSION)
    .message(8, new ProtoWriter().string(1, '').int(2, OPSET))
    .message(7, graph)
    .toBuffer();
}
