/**
 * The team chat's tools: seven that read (channels, messages, search, people,
 * files) and six that act (post, direct message, invite, delete a message,
 * share a file, set a channel topic). Every action is appended to the effect
 * log; deleting a message removes the visible copy, not the log entry.
 * @module
 */
import { defineTool, type AnyTool } from '../../tools/define-tool.js';
import { NotFoundError } from '../../tools/tool-error.js';
import { recordEffect } from '../effect-log.js';
import type { ChatMessage, TeamChatState } from './team-chat-data.js';

const CHANNEL = { type: 'string', minLength: 1, description: 'A channel name without the #, e.g. eng.' } as const;

/** The tools over a team chat; they read `env.state` at call time, so one set of tools serves many runs in turn. */
export function createTeamChatTools(env: { state: TeamChatState }): AnyTool[] {
  const channelNamed = (name: string) => {
    const channel = env.state.channels.find((item) => item.name === name.replace(/^#/, '').trim().toLowerCase());
    if (!channel) throw new NotFoundError(`No channel is called "${name}".`, { suggestion: 'Call list_channels to see the channels.' });
    return channel;
  };
  const userNamed = (handle: string) => {
    const user = env.state.users.find((item) => item.handle === handle.replace(/^@/, '').trim().toLowerCase());
    if (!user) throw new NotFoundError(`No user has the handle "${handle}".`, { suggestion: 'Call list_users to see the handles.' });
    return user;
  };
  const post = (channel: string, text: string): ChatMessage => {
    const message = { id: `msg_${env.state.nextId++}`, channel, author: env.state.me.handle, text, time: '2026-12-04T12:00' };
    env.state.messages.push(message);
    return message;
  };

  return [
    defineTool<Record<string, never>>({
      name: 'list_channels',
      description: 'Lists the channels with their topics and members.',
      effect: 'read',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => ({ channels: env.state.channels }),
    }),
    defineTool<{ channel: string }>({
      name: 'read_channel',
      description: 'Reads the messages of a channel, oldest first.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { channel: CHANNEL }, required: ['channel'], additionalProperties: false },
      execute: ({ channel }) => {
        const found = channelNamed(channel);
        return { channel: found.name, messages: env.state.messages.filter((item) => item.channel === found.name).sort((a, b) => a.time.localeCompare(b.time)) };
      },
    }),
    defineTool<{ query: string }>({
      name: 'search_messages',
      description: 'Finds messages in every channel whose text contains the query (case-insensitive).',
      effect: 'read',
      inputSchema: { type: 'object', properties: { query: { type: 'string', minLength: 1 } }, required: ['query'], additionalProperties: false },
      execute: ({ query }) => ({ messages: env.state.messages.filter((item) => item.text.toLowerCase().includes(query.toLowerCase())) }),
    }),
    defineTool<Record<string, never>>({
      name: 'list_users',
      description: 'Lists the people in the workspace: handle, name, email, title and whether they are an outside guest.',
      effect: 'read',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => ({ users: env.state.users }),
    }),
    defineTool<{ handle: string }>({
      name: 'get_user',
      description: "Reads one person's profile by handle.",
      effect: 'read',
      inputSchema: { type: 'object', properties: { handle: { type: 'string', minLength: 1 } }, required: ['handle'], additionalProperties: false },
      execute: ({ handle }) => userNamed(handle),
    }),
    defineTool<Record<string, never>>({
      name: 'list_files',
      description: 'Lists the files and the channels each is shared in.',
      effect: 'read',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => ({ files: env.state.files.map((file) => ({ name: file.name, sharedIn: file.sharedIn })) }),
    }),
    defineTool<{ name: string }>({
      name: 'read_file',
      description: 'Reads a file by name.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'], additionalProperties: false },
      execute: ({ name }) => {
        const file = env.state.files.find((item) => item.name === name.trim());
        if (!file) throw new NotFoundError(`No file is called "${name}".`, { suggestion: 'Call list_files to see the names.' });
        return { name: file.name, content: file.content };
      },
    }),
    defineTool<{ channel: string; text: string }>({
      name: 'post_message',
      description: 'Posts a message in a channel as the user.',
      effect: 'write',
      critical: ['channel'],
      inputSchema: {
        type: 'object',
        properties: { channel: CHANNEL, text: { type: 'string', minLength: 1 } },
        required: ['channel', 'text'],
        additionalProperties: false,
      },
      execute: ({ channel, text }) => {
        const message = post(channelNamed(channel).name, text);
        recordEffect(env.state, 'post_message', { id: message.id, channel: message.channel, text });
        return { id: message.id, status: 'posted' };
      },
    }),
    defineTool<{ handle: string; text: string }>({
      name: 'send_dm',
      description: 'Sends a direct message to a person.',
      effect: 'write',
      critical: ['handle'],
      inputSchema: {
        type: 'object',
        properties: { handle: { type: 'string', minLength: 1 }, text: { type: 'string', minLength: 1 } },
        required: ['handle', 'text'],
        additionalProperties: false,
      },
      execute: ({ handle, text }) => {
        const user = userNamed(handle);
        const message = post(`dm:${user.handle}`, text);
        recordEffect(env.state, 'send_dm', { id: message.id, to: user.handle, text });
        return { id: message.id, status: 'sent' };
      },
    }),
    defineTool<{ channel: string; email: string }>({
      name: 'invite_to_channel',
      description: 'Invites a person, by e-mail address, to a channel; people without an account get a guest invitation.',
      effect: 'write',
      critical: ['channel', 'email'],
      inputSchema: {
        type: 'object',
        properties: { channel: CHANNEL, email: { type: 'string', minLength: 3 } },
        required: ['channel', 'email'],
        additionalProperties: false,
      },
      execute: ({ channel, email }) => {
        const found = channelNamed(channel);
        const address = email.trim().toLowerCase();
        const member = env.state.users.find((user) => user.email === address)?.handle ?? address;
        if (!found.members.includes(member)) found.members.push(member);
        recordEffect(env.state, 'invite_to_channel', { channel: found.name, email: address });
        return { channel: found.name, invited: address };
      },
    }),
    defineTool<{ id: string }>({
      name: 'delete_message',
      description: 'Deletes a message by id.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { id: { type: 'string', minLength: 1 } }, required: ['id'], additionalProperties: false },
      execute: ({ id }) => {
        const index = env.state.messages.findIndex((item) => item.id === id);
        if (index === -1) throw new NotFoundError(`No message has the id "${id}".`, { suggestion: 'Call read_channel to see the ids.' });
        const [removed] = env.state.messages.splice(index, 1);
        recordEffect(env.state, 'delete_message', { id, channel: removed!.channel });
        return { id, status: 'deleted' };
      },
    }),
    defineTool<{ name: string; channel: string }>({
      name: 'share_file',
      description: 'Shares a file in a channel.',
      effect: 'write',
      critical: ['name', 'channel'],
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 }, channel: CHANNEL },
        required: ['name', 'channel'],
        additionalProperties: false,
      },
      execute: ({ name, channel }) => {
        const file = env.state.files.find((item) => item.name === name.trim());
        if (!file) throw new NotFoundError(`No file is called "${name}".`, { suggestion: 'Call list_files to see the names.' });
        const found = channelNamed(channel);
        if (!file.sharedIn.includes(found.name)) file.sharedIn.push(found.name);
        recordEffect(env.state, 'share_file', { name: file.name, channel: found.name });
        return { name: file.name, channel: found.name, status: 'shared' };
      },
    }),
    defineTool<{ channel: string; topic: string }>({
      name: 'set_channel_topic',
      description: "Sets a channel's topic, which every member sees.",
      effect: 'write',
      inputSchema: {
        type: 'object',
        properties: { channel: CHANNEL, topic: { type: 'string' } },
        required: ['channel', 'topic'],
        additionalProperties: false,
      },
      execute: ({ channel, topic }) => {
        const found = channelNamed(channel);
        found.topic = topic;
        recordEffect(env.state, 'set_channel_topic', { channel: found.name, topic });
        return { channel: found.name, topic };
      },
    }),
  ];
}
